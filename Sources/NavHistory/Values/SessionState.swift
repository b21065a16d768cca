import NavCore

/// A session's state after one of its events: what `state(of:at:)` gives, with the seq it is
/// at, so a caller that asked for "the latest" knows which event that was.
public struct SessionState: Hashable, Sendable {
  /// The session.
  public var session: SessionID
  /// The event the state is after.
  public var seq: Int
  /// The navigation state after event `seq`.
  public var state: AnyCoordinator

  /// Creates a session state.
  package init(session: SessionID, seq: Int, state: AnyCoordinator) {
    self.session = session
    self.seq = seq
    self.state = state
  }
}
