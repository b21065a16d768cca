/// One entry of a session's log: an operation, when it happened, who caused it, and why.
///
/// This is a line of a JSON Lines import, of `navstore history --json` and of the `events`
/// export (docs/spec/wire-format.md, "Event"). The store assigns `seq` and `hash` when it appends; an
/// import may carry them, and the store then checks them.
public struct NavigationEvent<Screen: NavigationScreen>: Hashable, Sendable {
  /// The session the event belongs to.
  public var session: SessionID
  /// Position in the session, from 1 without gaps; `nil` on import means "the next one".
  public var seq: Int?
  /// When it happened.
  public var at: Timestamp
  /// Whether the app navigated or the host reported a gesture.
  public var origin: EventOrigin
  /// What changed.
  public var operation: NavigationOperation<Screen>
  /// The app action that led to it, kept for audits and never interpreted.
  public var cause: JSONValue?
  /// The hash-chain value (lowercase hex SHA-256) after this event, as stored or as claimed.
  public var hash: String?

  /// Creates an event.
  public init(
    session: SessionID, seq: Int? = nil, at: Timestamp, origin: EventOrigin = .app,
    operation: NavigationOperation<Screen>, cause: JSONValue? = nil, hash: String? = nil
  ) {
    self.session = session
    self.seq = seq
    self.at = at
    self.origin = origin
    self.operation = operation
    self.cause = cause
    self.hash = hash
  }

  /// The same event without its hash: what the hash chain hashes.
  public var withoutHash: NavigationEvent {
    var copy = self
    copy.hash = nil
    return copy
  }
}

/// Who caused a navigation change.
public enum EventOrigin: String, Hashable, Sendable, Codable, CaseIterable {
  /// The app navigated (a button, a deep link, a reducer).
  case app
  /// The host reported a gesture: back button, edge swipe, swipe to dismiss, tab tap.
  case user
}

/// An event whose screens are untyped JSON.
public typealias AnyEvent = NavigationEvent<JSONValue>

extension NavigationEvent: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    try container.rejectUnknownFields(
      allowed: ["session", "seq", "at", "origin", "op", "cause", "hash"], in: "an event")
    session = try container.required(SessionID.self, "session")
    seq = try container.optionalInteger("seq", atLeast: 1)
    at = try container.required(Timestamp.self, "at")
    if let originName = try container.optional(String.self, "origin") {
      guard let origin = EventOrigin(rawValue: originName) else {
        throw container.failure(
          at: [AnyCodingKey("origin")], "unknown origin \"\(originName)\" (expected app or user)")
      }
      self.origin = origin
    } else {
      origin = .app
    }
    operation = try container.required(NavigationOperation<Screen>.self, "op")
    cause = try container.optional(JSONValue.self, "cause")
    hash = try container.optional(String.self, "hash")
    if let hash, !Self.isHashText(hash) {
      throw container.failure(
        at: [AnyCodingKey("hash")], "hash must be 64 lowercase hexadecimal digits (a SHA-256 value)")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    try container.encode(session, forKey: AnyCodingKey("session"))
    if let seq { try container.encode(seq, forKey: AnyCodingKey("seq")) }
    try container.encode(at, forKey: AnyCodingKey("at"))
    try container.encode(origin, forKey: AnyCodingKey("origin"))
    try container.encode(operation, forKey: AnyCodingKey("op"))
    if let cause { try container.encode(cause, forKey: AnyCodingKey("cause")) }
    if let hash { try container.encode(hash, forKey: AnyCodingKey("hash")) }
  }

  static func isHashText(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      bytes.count == 64
        && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }
  }
}
