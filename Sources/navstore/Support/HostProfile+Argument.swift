import ArgumentParser
import NavCore

extension HostProfile: ExpressibleByArgument {
  public init?(argument: String) {
    self.init(rawValue: argument)
  }

  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// The options every command that plans steps shares.
struct PlanningOptions: ParsableArguments {
  @Option(help: "The host profile: navigation-view (one change per step), navigation-stack (pushes join the previous step), navigation-stack-17 (also every dismissal in one step).")
  var host: HostProfile = .default

  @Option(name: .customLong("delay-ms"), help: "Milliseconds between steps.")
  var delayMilliseconds: Int = StepPlan<JSONValue>.defaultDelayMilliseconds

  func validate() throws {
    guard delayMilliseconds >= 0 else {
      throw ValidationError("--delay-ms must be 0 or more, not \(delayMilliseconds)")
    }
  }
}
