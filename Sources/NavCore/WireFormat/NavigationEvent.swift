/// One entry of a session's log: an operation, when it happened, who caused it, and why.
///
/// This is a line of a JSON Lines import, of `navstore history --json` and of the `events`
/// export (docs/spec/wire-format.md, "Event"). The store assigns `seq` and `hash` when it appends; an
/// import may carry them, and the store then checks them.
public struct NavigationEvent<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// The session the event belongs to.
  public var session: SessionID
  /// Position in the session, from 1 without gaps; `nil` on import means "the next one".
  public var seq: Int?
  /// When it happened.
  public var at: Timestamp
  /// Whether the app navigated or the host reported a gesture.
  public var origin: EventOrigin
  /// What changed.
  public var operation: NavigationOperation<AppScreen>
  /// The app action that led to it, kept for audits and never interpreted.
  public var cause: JSONValue?
  /// The hash-chain value (lowercase hex SHA-256) after this event, as stored or as claimed.
  public var hash: String?

  /// Creates an event.
  public init(
    session: SessionID, seq: Int? = nil, at: Timestamp, origin: EventOrigin = .app,
    operation: NavigationOperation<AppScreen>, cause: JSONValue? = nil, hash: String? = nil
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
  package var withoutHash: NavigationEvent {
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

enum EventField: String, WireField {
  case session, seq, at, origin, op, cause, hash
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension NavigationEvent: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> NavigationEvent {
    try read(object: WireObjectReader(tree))
  }

  static func read(object: WireObjectReader<EventField>) throws(WireFailure) -> NavigationEvent {
    var sessionTree: JSONValue?
    var seqTree: JSONValue?
    var atTree: JSONValue?
    var originTree: JSONValue?
    var operationTree: JSONValue?
    var causeTree: JSONValue?
    var hashTree: JSONValue?
    let present = object.sort { field, value in
      switch field {
      case .session: sessionTree = value
      case .seq: seqTree = value
      case .at: atTree = value
      case .origin: originTree = value
      case .op: operationTree = value
      case .cause: causeTree = value
      case .hash: hashTree = value
      }
    }
    try object.refuseUnknown(allowed: EventField.allCases, present: present, in: "an event")
    let session = try object.required(sessionTree, .session, WireScalars.sessionID)
    let seq = try object.optional(seqTree, .seq, WireScalars.integer(atLeast: 1, named: "seq"))
    let at = try object.required(atTree, .at, WireScalars.timestamp)
    let origin = try object.optional(originTree, .origin) { tree throws(WireFailure) in
      let name = try WireScalars.string(tree)
      guard let origin = EventOrigin(rawValue: name) else {
        throw WireFailure("unknown origin \"\(name)\" (expected app or user)")
      }
      return origin
    }
    let operation = try object.required(operationTree, .op, NavigationOperation<AppScreen>.read(from:))
    let cause = try object.optional(causeTree, .cause, WireScalars.json)
    let hash = try object.optional(hashTree, .hash) { tree throws(WireFailure) in
      let text = try WireScalars.string(tree)
      guard Self.isHashText(text) else {
        throw WireFailure("hash must be 64 lowercase hexadecimal digits (a SHA-256 value)")
      }
      return text
    }
    return NavigationEvent(
      session: session, seq: seq, at: at, origin: origin ?? .app, operation: operation, cause: cause, hash: hash)
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try write(to: &writer, operationBytes: nil)
  }

  /// Writes the event; `operationBytes`, when given, are its operation already written (the
  /// store keeps those bytes as the stored operation, so they are written once).
  func write(to writer: inout CanonicalWriter, operationBytes: [UInt8]?) throws(WireFailure) {
    try writer.object(EventField.self) { writer, field throws(WireFailure) in
      switch field {
      case .session: writer.string(session.rawValue)
      case .seq:
        guard let seq else { return }
        try writer.integer(seq)
      case .at: try writer.timestamp(at)
      case .origin: writer.string(origin.rawValue)
      case .op:
        if let operationBytes { writer.canonical(operationBytes) } else { try operation.write(to: &writer) }
      case .cause:
        guard let cause else { return }
        writer.json(cause)
      case .hash:
        guard let hash else { return }
        writer.string(hash)
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}

extension NavigationEvent {
  static func isHashText(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      bytes.count == 64
        && bytes.allSatisfy {
          (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
        }
    }
  }
}
