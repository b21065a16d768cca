/// A point in another session's history: session `session` after its event `seq`.
///
/// A session that begins by restoring another one says so in its `start` event
/// (`"restoredFrom": {"session": ID, "seq": N}`), so an audit can follow a user across app
/// launches: the new session's first state is the old one's state at that seq (minus whatever an
/// app update could no longer decode). The link is part of the event, and so of its hash.
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

extension SessionLink: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyCodingKey.self)
    try container.rejectUnknownFields(allowed: ["session", "seq"], in: "restoredFrom")
    session = try container.required(SessionID.self, "session")
    seq = try container.requiredInteger("seq", atLeast: 1)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyCodingKey.self)
    try container.encode(session, forKey: AnyCodingKey("session"))
    try container.encode(seq, forKey: AnyCodingKey("seq"))
  }
}
