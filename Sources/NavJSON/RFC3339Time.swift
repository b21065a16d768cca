/// Times as the wire format writes them in its JSON: RFC 3339 in UTC with exactly three fraction
/// digits, `2026-11-21T10:15:30.250Z`, read to and written from milliseconds since 1970. Any
/// other spelling (an offset, fewer or more digits, a lowercase `t` or `z`), or a date that does
/// not exist, is refused, so a time has one text and one hash.
package enum RFC3339Time {
  /// Why a text is not such a time, in words.
  package struct Refusal: Error {
    package var reason: String
  }

  /// The milliseconds since 1970 that `text` names.
  package static func milliseconds(parsing text: String) throws(Refusal) -> Int64 {
    var reader = TimeTextReader(bytes: Array(text.utf8))
    return try reader.readWireTime()
  }

  /// Appends the text of a time within the years 0000 to 9999, as UTF-8 (exports and encoders
  /// write times by the million, so no `String` is made for each).
  @inlinable package static func append(millisecondsSince1970 milliseconds: Int64, to bytes: inout [UInt8]) {
    let (days, millisecondOfDay) = milliseconds.floorDivided(by: 86_400_000)
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

/// A time's text, read from its start: the digits, separators and refusals that the wire
/// format's strict reader (below) and the query's lenient one (`RFC3339Time+Query.swift`) are
/// both made of.
struct TimeTextReader {
  let bytes: [UInt8]
  var index = 0

  mutating func number(digits: Int) throws(RFC3339Time.Refusal) -> Int64 {
    guard index + digits <= bytes.count else { throw failure("the text ends too early") }
    var value: Int64 = 0
    for _ in 0..<digits {
      guard isDigit(bytes[index]) else { throw failure("expected a digit at position \(index + 1)") }
      value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    return value
  }

  mutating func expect(_ character: Unicode.Scalar) throws(RFC3339Time.Refusal) {
    guard peek(character) else { throw failure("expected '\(character)' at position \(index + 1)") }
    index += 1
  }

  /// Whether the next byte is `character`.
  func peek(_ character: Unicode.Scalar) -> Bool { index < bytes.count && bytes[index] == UInt8(ascii: character) }

  func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  func failure(_ reason: String) -> RFC3339Time.Refusal { RFC3339Time.Refusal(reason: reason) }

  /// The days from 1970 to a date that exists; refused, with the field that is wrong, otherwise.
  func days(year: Int64, month: Int64, day: Int64) throws(RFC3339Time.Refusal) -> Int64 {
    guard (1...12).contains(month) else { throw failure("month \(month) does not exist") }
    guard (1...CivilCalendar.daysIn(month: month, year: year)).contains(day) else {
      throw failure("day \(day) does not exist in that month")
    }
    return CivilCalendar.daysSince1970(year: year, month: month, day: day)
  }
}

extension TimeTextReader {
  /// The wire format's time: exactly `YYYY-MM-DDTHH:MM:SS.mmmZ`.
  mutating func readWireTime() throws(RFC3339Time.Refusal) -> Int64 {
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
    guard peek("Z") else {
      throw failure("expected 'Z' after three fraction digits: times are UTC with milliseconds")
    }
    index += 1
    guard index == bytes.count else { throw failure("unexpected text after the time") }

    let days = try days(year: year, month: month, day: day)
    guard hour < 24, minute < 60 else { throw failure("the time of day is out of range") }
    guard second < 60 else { throw failure("second \(second) is out of range (leap seconds are not kept)") }

    return days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond
  }

}

/// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms), so
/// times are converted without Foundation's calendars, time zones or locales.
@usableFromInline enum CivilCalendar {
  static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  @inlinable static func date(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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
  @inlinable func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let quotient = self / divisor
    let remainder = self % divisor
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }
}
