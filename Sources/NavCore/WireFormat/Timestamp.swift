/// A moment, to the millisecond, in UTC: the `at` of an event.
///
/// Integer milliseconds rather than `Date` so that a time read from the wire and written back is
/// the same text (and the same hash) on every platform, with no floating-point rounding. NavCore
/// reads no clock; callers pass the time in.
public struct Timestamp: Hashable, Comparable, Sendable {
  /// Milliseconds since 1970-01-01T00:00:00Z.
  public var millisecondsSince1970: Int64

  /// Creates a timestamp from milliseconds since the Unix epoch.
  public init(millisecondsSince1970: Int64) {
    self.millisecondsSince1970 = millisecondsSince1970
  }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSince1970 < rhs.millisecondsSince1970
  }

  /// The earliest time the wire format can write (year 0000).
  static let earliest: Int64 = -62_167_219_200_000
  /// The latest time the wire format can write (the end of year 9999).
  static let latest: Int64 = 253_402_300_799_999
}

extension Timestamp: CustomStringConvertible {
  /// The wire-format text: `2026-11-21T10:15:30.250Z`.
  public var description: String { rfc3339 }

  /// The wire-format text: RFC 3339 in UTC with milliseconds, `2026-11-21T10:15:30.250Z`. A time
  /// outside the years 0000 to 9999 prints as the nearest end (encoding refuses it).
  public var rfc3339: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendRFC3339(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the wire-format text's UTF-8 bytes (exports and encoders write times by the
  /// million, so no `String` is made for each).
  package func appendRFC3339(to bytes: inout [UInt8]) {
    let clamped = min(max(millisecondsSince1970, Self.earliest), Self.latest)
    let (days, millisecondOfDay) = clamped.floorDivided(by: 86_400_000)
    let (year, month, day) = CivilCalendar.date(fromDaysSince1970: days)
    // `YYYY-MM-DDTHH:MM:SS.mmmZ` is 24 bytes, written on the stack and copied in one go
    // (exports and the canonical writer write a time per event).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { output in
      var position = 0
      func digits(_ value: Int64, _ width: Int) {
        var remaining = value
        for offset in stride(from: width - 1, through: 0, by: -1) {
          output[position + offset] = UInt8(ascii: "0") + UInt8(remaining % 10)
          remaining /= 10
        }
        position += width
      }
      func literal(_ character: Unicode.Scalar) {
        output[position] = UInt8(ascii: character)
        position += 1
      }
      digits(year, 4)
      literal("-")
      digits(month, 2)
      literal("-")
      digits(day, 2)
      literal("T")
      digits(millisecondOfDay / 3_600_000, 2)
      literal(":")
      digits(millisecondOfDay / 60_000 % 60, 2)
      literal(":")
      digits(millisecondOfDay / 1000 % 60, 2)
      literal(".")
      digits(millisecondOfDay % 1000, 3)
      literal("Z")
      bytes.append(contentsOf: UnsafeBufferPointer(output))
    }
  }
}

extension Timestamp {
  /// Reads a wire-format time: RFC 3339 in UTC with exactly three fraction digits,
  /// `2026-11-21T10:15:30.250Z`. Any other spelling (an offset, fewer or more digits, a lowercase
  /// `t` or `z`), or a date that does not exist, is refused, so a time has one text and one hash.
  public init(rfc3339 text: String) throws(TimestampError) {
    let bytes = Array(text.utf8)
    var reader = TimestampReader(bytes: bytes, text: text)
    self = try reader.read()
  }
}

/// Why a text is not an acceptable event time.
public struct TimestampError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text that was refused.
  package var text: String
  /// What is wrong with it.
  package var reason: String

  public var description: String {
    "\"\(text)\" is not a valid time (\(reason)); write it like 2026-11-21T10:15:30.250Z"
  }
}

private struct TimestampReader {
  let bytes: [UInt8]
  let text: String
  var index = 0

  mutating func read() throws(TimestampError) -> Timestamp {
    let year = try number(digits: 4)
    try expect("-")
    let month = try number(digits: 2)
    try expect("-")
    let day = try number(digits: 2)
    try expect("T")
    let hour = try number(digits: 2)
    try expect(":")
    let minute = try number(digits: 2)
    try expect(":")
    let second = try number(digits: 2)
    try expect(".")
    let millisecond = try number(digits: 3)
    guard index < bytes.count, bytes[index] == UInt8(ascii: "Z") else {
      throw failure("expected 'Z' after three fraction digits: times are UTC with milliseconds")
    }
    index += 1
    guard index == bytes.count else { throw failure("unexpected text after the time") }

    guard (1...12).contains(month) else { throw failure("month \(month) does not exist") }
    guard (1...CivilCalendar.daysIn(month: month, year: year)).contains(day) else {
      throw failure("day \(day) does not exist in that month")
    }
    guard hour < 24, minute < 60 else { throw failure("the time of day is out of range") }
    guard second < 60 else { throw failure("second \(second) is out of range (leap seconds are not kept)") }

    let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
    return Timestamp(
      millisecondsSince1970: days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond)
  }

  private mutating func number(digits: Int) throws(TimestampError) -> Int64 {
    guard index + digits <= bytes.count else { throw failure("the text ends too early") }
    var value: Int64 = 0
    for _ in 0..<digits {
      guard isDigit(bytes[index]) else { throw failure("expected a digit at position \(index + 1)") }
      value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    return value
  }

  private mutating func expect(_ character: Unicode.Scalar) throws(TimestampError) {
    guard index < bytes.count, bytes[index] == UInt8(ascii: character) else {
      throw failure("expected '\(character)' at position \(index + 1)")
    }
    index += 1
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  private func failure(_ reason: String) -> TimestampError { TimestampError(text: text, reason: reason) }
}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms), so
/// times are converted without Foundation's calendars, time zones or locales.
enum CivilCalendar {
  static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func date(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func isLeap(_ year: Int64) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }
}

extension Int64 {
  /// Division rounding toward negative infinity, with a remainder that is never negative.
  func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let quotient = self / divisor
    let remainder = self % divisor
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }
}

extension Timestamp: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      self = try Timestamp(rfc3339: text)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    guard (Self.earliest...Self.latest).contains(millisecondsSince1970) else {
      throw EncodingError.invalidValue(
        millisecondsSince1970,
        .init(codingPath: encoder.codingPath, debugDescription: "the time is outside the years 0000 to 9999"))
    }
    try container.encode(rfc3339)
  }
}
