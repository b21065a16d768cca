@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

/// The store's writes inside one write transaction: everything written through one writer
/// commits together when the closure that was handed it returns, and none of it when the closure
/// throws. `SessionStore.write(_:)` lends one for the length of its closure.
///
/// Not `Sendable`, so the compiler keeps it inside that closure.
public struct StoreWriter {
  let engine: StoreEngine

  /// Reads in this transaction, seeing what it has written so far.
  public var reader: StoreReader { StoreReader(engine: engine) }

  /// Appends one event. `event.seq`, when given, must be the session's next seq (or name an
  /// identical stored event, which is then skipped); `event.hash`, when given, must match.
  @discardableResult
  public func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    try engine.append(event)
  }

  /// Appends one event of an app's own screen type: its screens go through their `Codable`
  /// conformance into the wire format's JSON, as the store keeps them.
  @discardableResult
  public func append<AppScreen: NavigationScreen>(_ event: NavigationEvent<AppScreen>) throws(StoreError)
    -> AppendOutcome
  {
    try append(try Self.untyped(event))
  }

  /// An event of an app's own screen type as the store keeps it, its screens as wire-format JSON.
  static func untyped<AppScreen: NavigationScreen>(_ event: NavigationEvent<AppScreen>) throws(StoreError) -> AnyEvent {
    if let untyped = event as? AnyEvent { return untyped }
    do {
      return try WireFormat.decode(AnyEvent.self, from: try WireFormat.tree(of: event))
    } catch {
      throw StoreError.unencodable(error)
    }
  }

  /// Records an app action from the states before and after it: appends the operations `diff`
  /// derives (or `start` for a new session, carrying `context`), all with the same time, origin
  /// and cause. `before` must be the session's current state (`nil` for a new session).
  @discardableResult
  public func record(
    session: SessionID, from before: AnyCoordinator?, to after: AnyCoordinator, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) throws(StoreError) -> [AppendOutcome] {
    let head = try engine.head(of: session)
    guard head?.state.tree == before else {
      throw StoreError.stateMismatch(session: session, seq: head?.totals.count ?? 0)
    }
    let operations = try SessionStore.operations(recording: session, from: before, to: after, context: context)
    var outcomes: [AppendOutcome] = []
    for operation in operations {
      outcomes.append(
        try engine.append(AnyEvent(session: session, at: time, origin: origin, operation: operation, cause: cause)))
    }
    return outcomes
  }

  /// Records an app action with typed screens (see the untyped `record`).
  @discardableResult
  public func record<AppScreen: NavigationScreen>(
    session: SessionID, from before: Coordinator<AppScreen>?, to after: Coordinator<AppScreen>, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) throws(StoreError) -> [AppendOutcome] {
    try record(
      session: session, from: try before.map(SessionStore.untyped), to: try SessionStore.untyped(after), at: time,
      origin: origin, cause: cause, context: context)
  }
}
