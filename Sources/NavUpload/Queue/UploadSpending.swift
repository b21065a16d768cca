import NavCore
import NavPersistence

/// The bytes an uploader sent in one UTC day: what a daily cap is held to. The uploader's own
/// bookkeeping (NavUpload).
package struct UploadSpending: Hashable, Sendable {
  /// The day, counted from 1970-01-01 in UTC.
  package var day: Int
  /// Bytes sent that day, on any network (request bodies, as sent: gzip'd).
  package var bytes: Int
  /// The part of `bytes` sent on a network the app said was expensive (cellular, a hotspot).
  package var expensiveBytes: Int

  /// A day's spending.
  package init(day: Int, bytes: Int, expensiveBytes: Int) {
    self.day = day
    self.bytes = bytes
    self.expensiveBytes = expensiveBytes
  }

  /// The UTC day `time` falls in.
  package static func day(of time: Timestamp) -> Int {
    let milliseconds = time.millisecondsSince1970
    let perDay: Int64 = 86_400_000
    // Rounded down, also before 1970.
    return Int(milliseconds >= 0 ? milliseconds / perDay : (milliseconds - perDay + 1) / perDay)
  }
}
