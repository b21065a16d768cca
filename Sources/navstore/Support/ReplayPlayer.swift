import Foundation
import NavCore

/// Plays a session's state back from its launch state, as `replay` and `demo` show it.
struct ReplayPlayer {
  let host: HostProfile
  let delayMilliseconds: Int
  /// `nil` plays without waiting.
  let speed: Double?
  let json: Bool

  func play(session: SessionID, seq: Int, state: AnyCoordinator) throws {
    let launch = state.launchState
    let plan: StepPlan<JSONValue>
    do {
      plan = try AnyCoordinator.plan(from: launch, to: state, host: host)
    } catch {
      throw CLIError("\(error)")
    }
    let steps = plan.scheduled(delayMilliseconds: delayMilliseconds)
    if !json {
      let pace = speed.map { $0 == 1 ? "" : " at \($0)x speed" } ?? ", without waiting"
      print(
        "Replaying \(session) after seq \(seq) under \(host): \(steps.count) step\(steps.count == 1 ? "" : "s"), \(delayMilliseconds) ms apart\(pace)"
      )
      print("launch state:")
      print(launch.description.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
    }
    // Signals are caught only while the replay waits between steps, where it checks for them;
    // without waiting (--no-wait) they keep their default, which stops the process at once.
    if speed != nil { Interruption.install() }
    let started = Date()
    var previous = launch
    for step in steps {
      if let speed {
        let due = Double(step.atMs) / speed
        let elapsed = Date().timeIntervalSince(started) * 1000
        let wait = min(max(0, (due - elapsed).rounded(.up)), Double(Int32.max))
        guard Interruption.sleep(milliseconds: Int(wait)) else {
          throw CLIError(
            "replay interrupted before step \(step.step) of \(steps.count)", exitStatus: Interruption.exitStatus)
        }
      }
      if json {
        print(try WireFormat.canonicalString(step))
      } else {
        let changes = TreeDiffText.lines(from: previous, to: step.state)
        print("step \(step.step) at \(step.atMs) ms" + (changes.isEmpty ? ": no change" : ""))
        for change in changes { print("  " + change) }
      }
      fflush(nil)  // lines reach a pipe (a UI test driver) at their times
      previous = step.state
    }
  }
}
