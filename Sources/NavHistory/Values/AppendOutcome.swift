import NavCore

/// The outcome of appending one event.
public struct AppendOutcome: Hashable, Sendable {
  /// The event as stored, with its seq and hash.
  public var event: AnyEvent
  /// The session's state after the call (for a skipped duplicate, its current state).
  public var state: AnyCoordinator
  /// Whether the event was already stored (an idempotent re-import); nothing was written.
  public var wasAlreadyStored: Bool

  /// An outcome, as an engine's append reports it.
  package init(event: AnyEvent, state: AnyCoordinator, wasAlreadyStored: Bool) {
    self.event = event
    self.state = state
    self.wasAlreadyStored = wasAlreadyStored
  }
}
