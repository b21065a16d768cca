import NavCore

/// What makes stored history unreadable: a row edited outside NavStore, or a file damaged.
///
/// The store never writes such rows itself; meeting one means the file was changed behind its
/// back. `SessionStore.verify` finds the first bad seq of every session.
public enum HistoryDamage: Hashable, Sendable, CustomStringConvertible {
  /// An event's origin is neither `app` nor `user`.
  case unknownOrigin(String)
  /// An event's operation or cause is not valid wire format.
  case unreadableEvent(WireFormatError)
  /// A snapshot's state is not valid wire format.
  case unreadableSnapshot(WireFormatError)
  /// A stored operation no longer applies to the state before it.
  case eventNoLongerApplies(NavigationError)
  /// The session's first stored event is not a `start`, so it has no state.
  case noStartEvent
  /// The session's row says it has events, but no state could be formed from them.
  case stateMissing
  /// The session's row counts more events than any history can hold.
  case impossibleEventCount
  /// The sessions' event counts add up to more than any store can hold (met while summing them
  /// for a checkpoint).
  case impossibleEventTotal
  /// The session's row disagrees with its events (its count or head hash).
  case rowDisagreesWithEvents

  public var description: String {
    switch self {
    case .unknownOrigin(let origin): "unknown origin \"\(origin)\""
    case .unreadableEvent(let error): "\(error)"
    case .unreadableSnapshot(let error): "snapshot: \(error)"
    case .eventNoLongerApplies(let error): "the event no longer applies: \(error)"
    case .noStartEvent: "the session has no start event"
    case .stateMissing: "the session has events but no state"
    case .impossibleEventCount: "the session's event count is impossible"
    case .impossibleEventTotal: "the sessions' event counts are impossible"
    case .rowDisagreesWithEvents: "the session's counters disagree with its events"
    }
  }
}
