import NavCore
import NavHistory

/// The async calls that came before the store's doors, one per synchronous call: each is now a
/// closure through `read(_:)` or `write(_:)`, which also lets several calls share one snapshot
/// or one transaction. Kept, deprecated, for one release.
extension SessionStore {
  /// Appends one event, off the caller's thread.
  @available(*, deprecated, message: "call it through the store's door: try await store.write { try $0.append(event) }")
  @discardableResult
  public func append(_ event: AnyEvent) async throws(StoreError) -> AppendOutcome {
    try await write { writer throws(StoreError) in try writer.append(event) }
  }

  /// Records an app action, off the caller's thread.
  @available(
    *, deprecated,
    message: "call it through the store's door: try await store.write { try $0.record(session:from:to:at:) }"
  )
  @discardableResult
  public func record(
    session: SessionID, from before: AnyCoordinator?, to after: AnyCoordinator, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) async throws(StoreError) -> [AppendOutcome] {
    try await write { writer throws(StoreError) in
      try writer.record(
        session: session, from: before, to: after, at: time, origin: origin, cause: cause, context: context)
    }
  }

  /// Records an app action with typed screens, off the caller's thread.
  @available(
    *, deprecated,
    message: "call it through the store's door: try await store.write { try $0.record(session:from:to:at:) }"
  )
  @discardableResult
  public func record<AppScreen: NavigationScreen>(
    session: SessionID, from before: Coordinator<AppScreen>?, to after: Coordinator<AppScreen>, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) async throws(StoreError) -> [AppendOutcome] {
    try await write { writer throws(StoreError) in
      try writer.record(
        session: session, from: before, to: after, at: time, origin: origin, cause: cause, context: context)
    }
  }

  /// The session's state after event `seq`, off the caller's thread.
  @available(
    *, deprecated, message: "call it through the store's door: try await store.read { try $0.state(of: session) }"
  )
  public func state(of session: SessionID, at seq: Int? = nil) async throws(StoreError) -> SessionState {
    try await read { reader throws(StoreError) in try reader.state(of: session, at: seq) }
  }

  /// The session's state in the app's own screen type, off the caller's thread.
  @available(
    *, deprecated,
    message: "call it through the store's door: try await store.read { try $0.restore(session, as: Screen.self) }"
  )
  public func restore<AppScreen: NavigationScreen>(
    _ session: SessionID, as type: AppScreen.Type, at seq: Int? = nil, policy: RestorePolicy = .dropUndecodable
  ) async throws(StoreError) -> RestoredSession<AppScreen> {
    try await read { reader throws(StoreError) in try reader.restore(session, as: type, at: seq, policy: policy) }
  }

  /// The session's events, off the caller's thread.
  @available(
    *, deprecated, message: "call it through the store's door: try await store.read { try $0.history(of: session) }"
  )
  public func history(of session: SessionID, from: Int = 1, to: Int? = nil) async throws(StoreError) -> [AnyEvent] {
    try await read { reader throws(StoreError) in try reader.history(of: session, from: from, to: to) }
  }

  /// Every session, ordered by id, off the caller's thread.
  @available(*, deprecated, message: "call it through the store's door: try await store.read { try $0.sessions() }")
  public func sessions() async throws(StoreError) -> [SessionSummary] {
    try await read { reader throws(StoreError) in try reader.sessions() }
  }

  /// One session as `sessions()` lists it, off the caller's thread.
  @available(
    *, deprecated, message: "call it through the store's door: try await store.read { try $0.summary(of: session) }"
  )
  public func summary(of session: SessionID) async throws(StoreError) -> SessionSummary {
    try await read { reader throws(StoreError) in try reader.summary(of: session) }
  }

  /// The session to restore at launch, off the caller's thread.
  @available(
    *, deprecated, message: "call it through the store's door: try await store.read { try $0.latestSession() }"
  )
  public func latestSession() async throws(StoreError) -> SessionSummary? {
    try await read { reader throws(StoreError) in try reader.latestSession() }
  }

  /// Checks sessions, off the caller's thread.
  @available(*, deprecated, message: "call it through the store's door: try await store.read { try $0.verify() }")
  public func verify(_ sessions: [SessionID]? = nil) async throws(StoreError) -> [VerificationResult] {
    try await read { reader throws(StoreError) in try reader.verify(sessions) }
  }
}
