import ArgumentParser
import NavCore

/// `navstore plan`: the legal steps between two states, as a host would apply them.
struct PlanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "plan",
    abstract: "Print the step plan between two coordinator states.",
    discussion: """
      SwiftUI applies one navigation change per update, so a jump between two states is split \
      into legal steps with a delay between them. Each state is Coordinator JSON, given inline, \
      as @FILE, or as @- for standard input.

      Examples:
        navstore plan --from '{"routes":[{"style":"root","screen":"home"}]}' \\
          --to @deep-link.json
        navstore plan --from @a.json --to @b.json --host navigation-stack --json
      """
  )

  @Option(help: "The state to start from (Coordinator JSON, @FILE or @-).")
  var from: String

  @Option(help: "The state to reach (Coordinator JSON, @FILE or @-).")
  var to: String

  @OptionGroup var planning: PlanningOptions

  @Flag(help: "Print one JSON line per step: {\"step\", \"atMs\", \"state\"}.")
  var json = false

  func validate() throws {
    guard !(from == "@-" && to == "@-") else {
      throw ValidationError("--from and --to cannot both read standard input")
    }
  }

  func run() throws {
    let start = try JSONInput.decode(AnyCoordinator.self, from: from, option: "--from")
    let target = try JSONInput.decode(AnyCoordinator.self, from: to, option: "--to")
    let plan: StepPlan<JSONValue>
    do {
      plan = try AnyCoordinator.plan(from: start, to: target, host: planning.host ?? .default)
    } catch {
      throw CLIError("\(error)")
    }
    if json {
      for step in plan.scheduled(delayMilliseconds: planning.delayMilliseconds) {
        print(try WireFormat.canonicalString(step))
      }
    } else {
      print(StepPlanText.render(plan, from: start, delayMilliseconds: planning.delayMilliseconds))
    }
  }
}
