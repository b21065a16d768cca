import NavJSON

/// The scalar members of the wire format, read from a parsed tree with the messages the format
/// promises: the JSON type expected and found, the range a number must be in.
enum WireScalars {
  static func string(_ value: JSONValue) throws(WireFailure) -> String {
    guard case .string(let string) = value else { throw .mismatch(expected: "a string", found: value) }
    return string
  }

  /// The longest text a short text member (a context field, an end's reason) may hold, in
  /// Unicode scalars.
  static let maximumTextLength = 256

  /// A short text member's length rule, 1 to `maximumTextLength` Unicode scalars: the same when
  /// written as when read, so that what is written reads back.
  static func checkText(_ text: String, named field: String) throws(WireFailure) {
    let length = text.unicodeScalars.count
    guard (1...maximumTextLength).contains(length) else {
      throw WireFailure("\(field) must be 1 to \(maximumTextLength) characters, not \(length)")
    }
  }

  /// `text` as a short text member can hold it: `nil` when empty, cut at `maximumTextLength`
  /// Unicode scalars when longer. What recorders write, so that an empty string from the system
  /// never keeps an event from being recorded.
  static func writableText(_ text: String) -> String? {
    let scalars = text.unicodeScalars
    guard !scalars.isEmpty else { return nil }
    return String(String.UnicodeScalarView(scalars.prefix(maximumTextLength)))
  }

  static func bool(_ value: JSONValue) throws(WireFailure) -> Bool {
    guard case .bool(let bool) = value else { throw .mismatch(expected: "a boolean", found: value) }
    return bool
  }

  /// A number that is exactly an `Int`.
  static func integer(_ value: JSONValue) throws(WireFailure) -> Int {
    guard case .number(let number) = value else { throw .mismatch(expected: "a number", found: value) }
    guard let integer = Int(exactly: number) else {
      throw WireFailure("expected an integer that fits Int, found \(CanonicalJSON.format(number))")
    }
    return integer
  }

  /// A reader of integers of at least `minimum`, whose message names the field.
  static func integer(atLeast minimum: Int, named field: String) -> (JSONValue) throws(WireFailure) -> Int {
    { value throws(WireFailure) in
      let integer = try integer(value)
      try check(integer, atLeast: minimum, named: field)
      return integer
    }
  }

  /// An integer member's lower bound, the same when written as when read, so that what is
  /// written reads back.
  static func check(_ integer: Int, atLeast minimum: Int, named field: String) throws(WireFailure) {
    guard integer >= minimum else { throw WireFailure("\(field) must be at least \(minimum), not \(integer)") }
  }

  static func timestamp(_ value: JSONValue) throws(WireFailure) -> Timestamp {
    let text = try string(value)
    do {
      return try Timestamp(rfc3339: text)
    } catch {
      throw WireFailure(error.description)
    }
  }

  static func sessionID(_ value: JSONValue) throws(WireFailure) -> SessionID {
    let text = try string(value)
    do {
      return try SessionID(text)
    } catch {
      throw WireFailure(error.description)
    }
  }

  /// Any JSON value (a cause): carried, never interpreted.
  static func json(_ value: JSONValue) -> JSONValue { value }

  /// An array, each element read by `read`; a failure is placed under the element's index.
  static func array<Element>(
    _ value: JSONValue, _ read: (JSONValue) throws(WireFailure) -> Element
  ) throws(WireFailure) -> [Element] {
    guard case .array(let elements) = value else { throw .mismatch(expected: "an array", found: value) }
    return try elements.mapPlacingFailures(read)
  }
}
