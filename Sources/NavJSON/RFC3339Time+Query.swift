extension RFC3339Time {
  /// The milliseconds since 1970 that a time a person or a script wrote names: a date alone
  /// (`2026-11-21`, its first moment in UTC), or a date and a time of day in minutes, seconds or
  /// any fraction of them (`2026-11-21T10:15`, `2026-11-21T10:15:30`, `2026-11-21 10:15:30.25`),
  /// with `Z`, an offset (`+01:00`) or nothing (UTC). A fraction finer than a millisecond is cut.
  /// What `--since`, `--until` and the collector's time parameters take; the wire format's own
  /// times stay strict.
  package static func milliseconds(parsingQuery text: String) throws(Refusal) -> Int64 {
    var reader = TimeTextReader(bytes: Array(text.utf8))
    return try reader.readQueryTime()
  }
}

extension TimeTextReader {
  /// A date, or a date and time as people write one (see `milliseconds(parsingQuery:)`).
  fileprivate mutating func readQueryTime() throws(RFC3339Time.Refusal) -> Int64 {
    let year = try number(digits: 4)
    try expect("-")
    let month = try number(digits: 2)
    try expect("-")
    let day = try number(digits: 2)
    let midnight = try days(year: year, month: month, day: day) * 86_400_000
    guard index < bytes.count else { return midnight }
    guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[index]) else {
      throw failure("expected 'T' between the date and the time")
    }
    index += 1
    let hour = try number(digits: 2)
    try expect(":")
    let minute = try number(digits: 2)
    var second: Int64 = 0
    var millisecond: Int64 = 0
    if peek(":") {
      index += 1
      second = try number(digits: 2)
      if peek(".") {
        index += 1
        var digits = 0
        while index < bytes.count, isDigit(bytes[index]) {
          if digits < 3 { millisecond = millisecond * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
          digits += 1
          index += 1
        }
        guard digits > 0 else { throw failure("expected digits after the '.'") }
        for _ in digits..<max(digits, 3) { millisecond *= 10 }
      }
    }
    guard hour < 24, minute < 60, second < 60 else { throw failure("the time of day is out of range") }
    var offset: Int64 = 0
    if index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        index += 1
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let sign: Int64 = bytes[index] == UInt8(ascii: "+") ? 1 : -1
        index += 1
        let hours = try number(digits: 2)
        try expect(":")
        let minutes = try number(digits: 2)
        guard hours < 24, minutes < 60 else { throw failure("the offset is out of range") }
        offset = sign * (hours * 3_600_000 + minutes * 60_000)
      default:
        throw failure("expected 'Z', an offset like +01:00, or nothing after the time")
      }
    }
    guard index == bytes.count else { throw failure("unexpected text after the time") }
    return midnight + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond - offset
  }
}
