import Foundation
import NavCore

extension Timestamp {
  /// What a clock in `zone` showed at this moment: the time shifted by the zone's offset then
  /// and written as the wire format writes times, without a zone (`2026-11-21T10:00:00.000`),
  /// and that offset in seconds. `nil` when the shift would overflow (a hand-made time).
  package func wallClock(in zone: TimeZone) -> (text: String, offsetSeconds: Int)? {
    let date = Date(timeIntervalSince1970: TimeInterval(millisecondsSince1970 / 1000))
    let offset = zone.secondsFromGMT(for: date)
    let (shifted, overflow) = millisecondsSince1970.addingReportingOverflow(Int64(offset) * 1000)
    guard !overflow else { return nil }
    return (String(Timestamp(millisecondsSince1970: shifted).rfc3339.dropLast()), offset)
  }
}
