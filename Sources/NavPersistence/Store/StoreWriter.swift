@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

/// The store's writes inside one write transaction: everything written through one writer
/// commits together when the closure that was handed it returns, and none of it when the closure
/// throws. `SessionStore.write(_:)` lends one for the length of its closure.
///
/// A call that fails fails the whole write: the door throws that call's error, and keeps
/// nothing, even when the closure caught the error and returned. A call may have written part of
/// its work before it failed (the first of a `record`'s events, a page before the disk filled),
/// and a write is never committed in part.
///
/// Not `Sendable`: in Swift 6 language mode the compiler keeps it inside the closure it was lent
/// to, and it is not to be kept past that closure in any mode.
public struct StoreWriter {
  let engine: StoreEngine
  /// The first error a call of this writer threw, which the door throws in its place.
  let failures = FirstFailure()

  /// Reads in this transaction, seeing what it has written so far. (Reads through the store
  /// itself, inside the closure, see the store as it was before this write.)
  public var reader: StoreReader { StoreReader(engine: engine) }

  /// Appends one event. `event.seq`, when given, must be the session's next seq (or name an
  /// identical stored event, which is then skipped); `event.hash`, when given, must match.
  @discardableResult
  public func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    try failures.noting { () throws(StoreError) in try engine.append(event) }
  }

  /// Appends one event, a refusal leaving the transaction to go on: what the collector's ingest
  /// does line by line, whose refused lines write nothing before they are refused. Any other
  /// failure is the caller's to throw out of the transaction.
  package func appendOrRefuse(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    try engine.append(event)
  }

  /// Appends one event of an app's own screen type: its screens go through their `Codable`
  /// conformance into the wire format's JSON, as the store keeps them.
  @discardableResult
  public func append<AppScreen: NavigationScreen>(_ event: NavigationEvent<AppScreen>) throws(StoreError)
    -> AppendOutcome
  {
    try failures.noting { () throws(StoreError) in try engine.append(try Self.untyped(event)) }
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
    try failures.noting { () throws(StoreError) in
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
  }

  /// Records an app action with typed screens (see the untyped `record`). The states are
  /// encoded here, inside the transaction.
  @discardableResult
  public func record<AppScreen: NavigationScreen>(
    session: SessionID, from before: Coordinator<AppScreen>?, to after: Coordinator<AppScreen>, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) throws(StoreError) -> [AppendOutcome] {
    let (before, after) = try failures.noting { () throws(StoreError) in
      (try before.map(SessionStore.untyped), try SessionStore.untyped(after))
    }
    return try record(
      session: session, from: before, to: after, at: time, origin: origin, cause: cause, context: context)
  }
}

/// A writer is lent for one closure and holds the write lock's connection: it is never to cross
/// to another task or thread.
@available(*, unavailable)
extension StoreWriter: Sendable {}

/// The first error a writer's calls threw: shared by the copies of one `StoreWriter`, read by
/// its door when the closure returns.
final class FirstFailure {
  private(set) var error: StoreError?

  /// Runs `body`, keeping its error (the first one only) before passing it on.
  func noting<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      if self.error == nil { self.error = error }
      throw error
    }
  }
}
