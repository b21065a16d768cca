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

/// The outcome of appending one event.
public struct AppendOutcome: Hashable, Sendable {
  /// The event as stored, with its seq and hash.
  public var event: AnyEvent
  /// The session's state after the call (for a skipped duplicate, its current state).
  public var state: AnyCoordinator
  /// Whether the event was already stored (an idempotent re-import); nothing was written.
  public var wasAlreadyStored: Bool
}

/// What `verify` found for one session.
public struct VerificationResult: Hashable, Sendable {
  /// The session checked.
  public var session: SessionID
  /// How many events were checked.
  public var eventCount: Int
  /// The first problem, or `nil` when the session is intact.
  public var failure: Failure?

  /// Whether the session is intact.
  public var isIntact: Bool { failure == nil }

  /// The first bad seq and what is wrong with it.
  public struct Failure: Hashable, Sendable, CustomStringConvertible {
    /// The first seq at which the history is not what the chain says it was.
    public var seq: Int
    /// What is wrong.
    public var reason: String

    public var description: String { "seq \(seq): \(reason)" }
  }
}

extension Coordinator {
  /// Routes on the visible path: the routes of the stack on screen, plus those of the child
  /// shown by its top route, following selected tabs.
  public var visibleDepth: Int {
    switch self {
    case .stack(let routes): routes.count + (routes.last?.child?.visibleDepth ?? 0)
    case .tabs(let tabs, let selected): tabs.indices.contains(selected) ? tabs[selected].visibleDepth : 0
    }
  }
}
