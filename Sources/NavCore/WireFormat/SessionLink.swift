/// A point in another session's history: session `session` after its event `seq`.
///
/// A session that begins by restoring another one says so in its `start` event
/// (`"restoredFrom": {"session": ID, "seq": N}`), so an audit can follow a user across app
/// launches: the new session's first state is the old one's state at that seq (minus whatever an
/// app update could no longer decode, or only its roots when the launch before crashed while
/// restoring). The link is part of the event, and so of its hash.
public struct SessionLink: Hashable, Sendable, CustomStringConvertible {
  /// The session that was restored.
  public var session: SessionID
  /// The seq it was restored at, from 1.
  public var seq: Int

  /// Creates a link to `session` after its event `seq`.
  public init(session: SessionID, seq: Int) {
    self.session = session
    self.seq = seq
  }

  /// `s-1 at seq 12`, for messages and listings.
  public var description: String { "\(session) at seq \(seq)" }
}

enum SessionLinkField: String, WireField {
  case session, seq
  static let canonicalOrder = sortedCanonically()
  static let keys = WireNames<Self>()
}

extension SessionLink: WireValue, Codable {
  static func read(from tree: JSONValue) throws(WireFailure) -> SessionLink {
    let object = try WireObjectReader<SessionLinkField>(tree)
    var sessionTree: JSONValue?
    var seqTree: JSONValue?
    let present = object.sort { field, value in
      switch field {
      case .session: sessionTree = value
      case .seq: seqTree = value
      }
    }
    try object.refuseUnknown(allowed: SessionLinkField.allCases, present: present, in: "restoredFrom")
    return SessionLink(
      session: try object.required(sessionTree, .session, WireScalars.sessionID),
      seq: try object.required(seqTree, .seq, WireScalars.integer(atLeast: 1, named: "seq")))
  }

  func write(to writer: inout CanonicalWriter) throws(WireFailure) {
    try writer.object(SessionLinkField.self) { writer, field throws(WireFailure) in
      switch field {
      case .session: writer.string(session.rawValue)
      case .seq: try writer.integer(seq)
      }
    }
  }

  public init(from decoder: any Decoder) throws { self = try Self.decoded(from: decoder) }
  public func encode(to encoder: any Encoder) throws { try encodeWire(to: encoder) }
}
