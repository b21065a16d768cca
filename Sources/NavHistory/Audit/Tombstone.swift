import NavCore

/// What is left of a forgotten session: its id, when it was forgotten, and its last seq and
/// chain value then, nothing of what it showed. Audits against checkpoints made before the
/// erasure report the session as forgotten at this time, not as tampered with.
public struct Tombstone: Sendable, Hashable, CustomStringConvertible {
  /// The forgotten session.
  public var session: SessionID
  /// When it was forgotten.
  public var forgottenAt: Timestamp
  /// Its last seq then.
  public var lastSeq: Int
  /// Its chain value after that event (32 bytes).
  package var headHash: [UInt8]

  /// A tombstone as an engine wrote or read it.
  package init(session: SessionID, forgottenAt: Timestamp, lastSeq: Int, headHash: [UInt8]) {
    self.session = session
    self.forgottenAt = forgottenAt
    self.lastSeq = lastSeq
    self.headHash = headHash
  }

  public var description: String {
    "\(session): forgotten at \(forgottenAt) (\(lastSeq) event\(lastSeq == 1 ? "" : "s"), last chain value \(HashChain.hex(headHash)))"
  }
}
