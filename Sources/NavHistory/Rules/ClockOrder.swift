import NavCore

/// Event times taken in seq order, as the store sums them up in each session's row
/// (`clock_jumps`, `duration_ms`): how often the device's clock went back, and how long the
/// events span counting only the clock going forward. `verify` recomputes it to check the row,
/// the report draws its timeline with it, and an app can measure its own spans the same way.
package struct ClockOrder: Sendable {
  /// The most `durationMilliseconds` holds (2^53 - 1, as the schema's update does): only a
  /// hand-made history of ten-thousand-year jumps gets there.
  package static let maximumDuration: Int64 = 9_007_199_254_740_991

  /// How many times were earlier than the time before them.
  package private(set) var jumps = 0
  /// The seq of the first such time.
  package private(set) var firstJump: Int?
  /// The time from the first to the last, counting each step back of the clock as 0.
  package private(set) var durationMilliseconds: Int64 = 0
  /// The part of `durationMilliseconds` whose steps began in the foreground.
  package private(set) var foregroundMilliseconds: Int64 = 0
  private var last: Timestamp?

  /// Nothing taken yet.
  package init() {}

  /// Takes the next event's time; `inForeground` says whether the app was in the foreground
  /// since the event before (the step counts towards `foregroundMilliseconds`).
  package mutating func add(_ time: Timestamp, seq: Int, inForeground: Bool = true) {
    defer { last = time }
    guard let last else { return }
    if time < last {
      jumps += 1
      if firstJump == nil { firstJump = seq }
      return
    }
    durationMilliseconds = Self.adding(durationMilliseconds, from: last, to: time)
    if inForeground { foregroundMilliseconds = Self.adding(foregroundMilliseconds, from: last, to: time) }
  }

  /// `total` plus the time from `start` to `end` (not earlier than `start`), held at
  /// `maximumDuration`: how a duration grows by one step, here and in the screen views.
  package static func adding(_ total: Int64, from start: Timestamp, to end: Timestamp) -> Int64 {
    let gap = end.millisecondsSince1970.subtractingReportingOverflow(start.millisecondsSince1970)
    let sum = total.addingReportingOverflow(gap.partialValue)
    return gap.overflow || sum.overflow ? maximumDuration : min(sum.partialValue, maximumDuration)
  }

  /// Two durations added, held at `maximumDuration`.
  package static func adding(_ total: Int64, _ more: Int64) -> Int64 {
    let sum = total.addingReportingOverflow(more)
    return sum.overflow ? maximumDuration : min(sum.partialValue, maximumDuration)
  }
}
