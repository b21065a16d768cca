import NavJSON

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
  package var rfc3339: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    appendRFC3339(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the wire-format text's UTF-8 bytes (exports and encoders write times by the
  /// million, so no `String` is made for each).
  package func appendRFC3339(to bytes: inout [UInt8]) {
    RFC3339Time.append(millisecondsSince1970: min(max(millisecondsSince1970, Self.earliest), Self.latest), to: &bytes)
  }
}

extension Timestamp {
  /// Reads a wire-format time: RFC 3339 in UTC with exactly three fraction digits,
  /// `2026-11-21T10:15:30.250Z`. Any other spelling (an offset, fewer or more digits, a lowercase
  /// `t` or `z`), or a date that does not exist, is refused, so a time has one text and one hash.
  package init(rfc3339 text: String) throws(TimestampError) {
    do {
      self.init(millisecondsSince1970: try RFC3339Time.milliseconds(parsing: text))
    } catch {
      throw TimestampError(text: text, reason: error.reason)
    }
  }
}

/// Why a text is not an acceptable event time.
package struct TimestampError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text that was refused.
  package var text: String
  /// What is wrong with it.
  package var reason: String

  package var description: String {
    "\"\(text)\" is not a valid time (\(reason)); write it like 2026-11-21T10:15:30.250Z"
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

extension Timestamp {
  /// Reads a time as a person or a script writes one to choose sessions or rows: a date alone
  /// (`2026-11-21`: its first moment in UTC), or a date and a time of day to the minute, second
  /// or any fraction (`2026-11-21T10:15`, `2026-11-21T10:15:30.25Z`), in UTC unless an offset
  /// says otherwise (`2026-11-21T11:15:30+01:00`). What every time option of the command line
  /// and every time parameter of the collector take.
  package init(query text: String) throws(QueryTimeError) {
    do {
      self.init(millisecondsSince1970: try RFC3339Time.milliseconds(parsingQuery: text))
    } catch {
      throw QueryTimeError(text: text, reason: error.reason)
    }
  }
}

/// Why a text is not a time that can choose sessions or rows.
package struct QueryTimeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text that was refused.
  package var text: String
  /// What is wrong with it.
  package var reason: String

  package var description: String {
    "\"\(text)\" is not a date or a time (\(reason)); write a date like 2026-11-21, or a time like "
      + "2026-11-21T10:15:30Z or 2026-11-21T11:15:30+01:00"
  }
}
