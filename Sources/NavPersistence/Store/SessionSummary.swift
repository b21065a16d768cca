import NavCore

/// A session as `navstore sessions` lists it.
public struct SessionSummary: Hashable, Sendable {
  /// The session's id.
  public var id: SessionID
  /// How many events it has (its last seq).
  public var eventCount: Int
  /// When its first event happened.
  public var firstAt: Timestamp?
  /// When its last event happened.
  public var lastAt: Timestamp?
  /// Routes on the visible path of its current state.
  public var depth: Int
  /// The session this one continues, when it began by restoring it (its `start` event's
  /// `restoredFrom`).
  public var restoredFrom: SessionLink?
}
