import NavCore

/// The bytes an uploader sent in one UTC day: what a daily cap is held to.
public struct UploadSpending: Hashable, Sendable {
  /// The day, counted from 1970-01-01 in UTC.
  public var day: Int
  /// Bytes sent that day, on any network (request bodies, as sent: gzip'd).
  public var bytes: Int
  /// The part of `bytes` sent on a network the app said was expensive (cellular, a hotspot).
  public var expensiveBytes: Int

  /// A day's spending.
  public init(day: Int, bytes: Int, expensiveBytes: Int) {
    self.day = day
    self.bytes = bytes
    self.expensiveBytes = expensiveBytes
  }

  /// The UTC day `time` falls in.
  public static func day(of time: Timestamp) -> Int {
    let milliseconds = time.millisecondsSince1970
    let perDay: Int64 = 86_400_000
    // Rounded down, also before 1970.
    return Int(milliseconds >= 0 ? milliseconds / perDay : (milliseconds - perDay + 1) / perDay)
  }
}
