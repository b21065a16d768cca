import ArgumentParser
import NavCore

/// The options every command that plans steps shares.
struct PlanningOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The host profile: navigation-view (one change per step), navigation-stack (pushes join the previous "
        + "step), navigation-stack-17 (also every dismissal in one step). Default: navigation-view, or for a "
        + "stored session the one its app recorded.")
  )
  var host: HostProfile?

  @Option(name: .customLong("delay-ms"), parsing: .unconditional, help: "Milliseconds between steps.")
  var delayMilliseconds: Int = StepPlan<JSONValue>.defaultDelayMilliseconds

  /// One day: a longer delay between two navigation steps is a mistake, and would overflow times.
  static let longestDelay = 86_400_000

  func validate() throws {
    guard (0...Self.longestDelay).contains(delayMilliseconds) else {
      throw ValidationError("--delay-ms must be from 0 to \(Self.longestDelay) (one day), not \(delayMilliseconds)")
    }
  }
}
