import NavJSON

/// The name of a recorded session: 1 to 128 characters, none of them a control character.
///
/// A validated type rather than a bare `String`, so an id that would break a CSV export or a
/// terminal listing cannot reach the store. Characters are counted as Unicode scalars.
public struct SessionID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The id's text.
  public let rawValue: String

  /// The longest id, in Unicode scalars.
  package static let maximumLength = 128

  /// The id every other one sorts after, by its bytes (a single space): where a listing begins
  /// to leave out every session of a time.
  package static let lowest = SessionID(valid: " ")

  private init(valid rawValue: String) { self.rawValue = rawValue }

  /// Validates and wraps an id.
  public init(_ rawValue: String) throws(SessionIDError) {
    // The common id: 1 to 128 printable ASCII characters, which need no scalar-by-scalar check.
    var text = rawValue
    let isPlainASCII = text.withUTF8 { bytes in
      (1...Self.maximumLength).contains(bytes.count) && bytes.allSatisfy { (0x20...0x7E).contains($0) }
    }
    if isPlainASCII {
      self.rawValue = rawValue
      return
    }
    let length = rawValue.unicodeScalars.count
    guard length >= 1 else { throw SessionIDError(id: rawValue, reason: "it is empty") }
    guard length <= Self.maximumLength else {
      throw SessionIDError(id: rawValue, reason: "it has \(length) characters, the limit is \(Self.maximumLength)")
    }
    if let control = rawValue.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
      let code = String(control.value, radix: 16, uppercase: true)
      throw SessionIDError(
        id: rawValue,
        reason: "it contains the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)")
    }
    self.rawValue = rawValue
  }

  public var description: String { rawValue }

  /// Ids are the same when their bytes are (as SQLite compares them), not merely canonically
  /// equivalent as Swift strings.
  public static func == (lhs: SessionID, rhs: SessionID) -> Bool {
    lhs.rawValue.hasSameUTF8(as: rhs.rawValue)
  }

  public func hash(into hasher: inout Hasher) {
    var copy = rawValue
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// Byte order, as SQLite sorts text (`ORDER BY id`).
  public static func < (lhs: SessionID, rhs: SessionID) -> Bool {
    lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
  }
}

/// Why a text cannot be a session id.
public struct SessionIDError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The refused id.
  package var id: String
  /// Why.
  package var reason: String

  /// The id shortened and with control characters shown as `?`, safe to print on one line.
  private var printable: String {
    id.unicodeScalars.prefix(40).map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
  }

  public var description: String {
    "invalid session id \"\(printable)\": \(reason) (1 to 128 characters, no control characters)"
  }
}

extension SessionID: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      self = try SessionID(text)
    } catch {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
