/// A duration as people write it in a sentence: `7 days`, `12 hours`, `90 minutes`, `1 second`,
/// `250 ms`. The largest unit that measures it exactly, so a limit reads as it was set.
package enum DurationWords {
  private static let units: [(milliseconds: Int64, one: String, many: String)] = [
    (86_400_000, "day", "days"), (3_600_000, "hour", "hours"), (60_000, "minute", "minutes"),
    (1_000, "second", "seconds"),
  ]

  /// `milliseconds` in words.
  package static func exact(milliseconds: Int64) -> String {
    for unit in units where milliseconds != 0 && milliseconds % unit.milliseconds == 0 {
      let count = milliseconds / unit.milliseconds
      return "\(count) \(abs(count) == 1 ? unit.one : unit.many)"
    }
    return "\(milliseconds) ms"
  }
}
