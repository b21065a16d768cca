import NavCore

/// An event at a fixed time, `offset` milliseconds after a base instant.
public func event(
  _ session: String, _ operation: AnyOperation, offset: Int64 = 0, seq: Int? = nil, origin: EventOrigin = .app
)
  -> AnyEvent
{
  AnyEvent(
    session: sessionID(session), seq: seq, at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + offset),
    origin: origin,
    operation: operation)
}

/// A random session: a start and the operations accepted after it, with the state after each.
public struct RandomSession {
  /// The events, in order.
  public var events: [AnyEvent]
  /// The state after each event.
  public var states: [AnyCoordinator]

  /// A session `length` events long, its operations drawn from `rng`.
  public static func make(id: String, using rng: inout some RandomNumberGenerator, length: Int) -> RandomSession {
    var state = RandomTrees.coordinator(depth: 3, using: &rng)
    var events = [event(id, .start(state))]
    var states = [state]
    while events.count < length {
      let operation = RandomTrees.operation(for: state, using: &rng)
      guard let next = try? state.applying(operation) else { continue }
      state = next
      events.append(event(id, operation, offset: Int64(events.count)))
      states.append(state)
    }
    return RandomSession(events: events, states: states)
  }
}
