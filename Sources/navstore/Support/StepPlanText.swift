import NavCore

/// The readable form of a step plan: one line per step, its time, and what changes in it.
enum StepPlanText {
  static func render(_ plan: StepPlan<JSONValue>, from start: AnyCoordinator, delayMilliseconds: Int) -> String {
    let scheduled = plan.scheduled(delayMilliseconds: delayMilliseconds)
    let count = scheduled.count
    var lines = [
      "\(count) step\(count == 1 ? "" : "s") under \(plan.host), \(delayMilliseconds) ms apart, "
        + "\(formatDuration(plan.duration(delayMilliseconds: delayMilliseconds)))"
        + (plan.canUpdateAtOnce ? " (the host can apply it at once)" : "")
    ]
    let timeWidth = String(scheduled.last?.atMs ?? 0).count
    var previous = start
    for step in scheduled {
      let label = "step \(step.step)".padding(toLength: 8 + String(count - 1).count - 1, withPad: " ", startingAt: 0)
      let time = String(repeating: " ", count: max(0, timeWidth - String(step.atMs).count)) + "\(step.atMs) ms"
      lines.append("  \(label) \(time)  \(describeChange(from: previous, to: step.state))")
      previous = step.state
    }
    return lines.joined(separator: "\n")
  }

  /// The change between two consecutive steps, as the operations `diff` names.
  static func describeChange(from old: AnyCoordinator, to new: AnyCoordinator) -> String {
    guard let operations = try? AnyCoordinator.diff(from: old, to: new) else { return "replace the state" }
    return operations.isEmpty ? "no change" : operations.map(\.summary).joined(separator: "; ")
  }

  static func formatDuration(_ milliseconds: Int) -> String {
    milliseconds < 1000 ? "\(milliseconds) ms in all" : "\(Double(milliseconds) / 1000) s in all"
  }
}
