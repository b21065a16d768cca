import Dispatch
import NavCore
@_spi(Internals) import NavHistory

/// The store's calls for Swift concurrency. SQLite blocks the thread that calls it (for a long
/// import, or while another process holds the lock), and a blocked thread of the cooperative
/// pool holds up every task that needs one. These run the same work on a dispatch queue of
/// their own and suspend the calling task meanwhile.
///
/// A task cancelled while its call runs still gets the call's result: a write is not left half
/// done. Closures passed to these variants run on the store's queue, hence `@Sendable`.
extension SessionStore {
  /// The queue the async calls run on: concurrent, so reads run beside a write here too.
  private static let queue = DispatchQueue(label: "NavPersistence.SessionStore", attributes: .concurrent)

  /// Runs `work` on the store's queue and resumes the caller with its result.
  package func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws(StoreError) -> T) async throws(StoreError)
    -> T
  {
    try await Self.offloaded(work).get()
  }

  /// Runs `work` on the store's queue and resumes the caller with its result: for the sibling
  /// modules' work that blocks with no store yet (opening one, migrating it).
  package static func offloaded<T: Sendable, Failure: Error>(
    _ work: @escaping @Sendable () throws(Failure) -> T
  ) async -> Result<T, Failure> {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: Result { () throws(Failure) -> T in try work() }) }
    }
  }

  /// Runs `work` with this store on the store's own queue, off the caller's thread: for the
  /// sibling modules' reads that take several calls (a page of sessions, a report).
  package func offloadedRead<T: Sendable>(
    _ work: @escaping @Sendable (SessionStore) throws(StoreError) -> T
  ) async throws(StoreError) -> T {
    try await offloaded { () throws(StoreError) in try work(self) }
  }

  /// The schema version of the store (see the synchronous `schemaVersion()`).
  package func schemaVersion() async throws(StoreError) -> Int {
    try await offloaded { () throws(StoreError) in try self.schemaVersion() }
  }

  /// Appends one event (see the synchronous `append(_:)`).
  @discardableResult
  public func append(_ event: AnyEvent) async throws(StoreError) -> AppendOutcome {
    try await offloaded { () throws(StoreError) in try self.append(event) }
  }

  /// Appends one event at the time `clock` gives inside the write transaction (see the
  /// synchronous `append(_:timedBy:)`).
  @discardableResult
  package func append(_ event: AnyEvent, timedBy clock: @escaping @Sendable () -> Timestamp) async throws(StoreError)
    -> AppendOutcome
  {
    try await offloaded { () throws(StoreError) in try self.append(event, timedBy: clock) }
  }

  /// Appends events in one transaction (see the synchronous `append(contentsOf:)`).
  @discardableResult
  package func append(contentsOf events: [AnyEvent]) async throws(StoreError) -> BatchOutcome {
    try await offloaded { () throws(StoreError) in try self.append(contentsOf: events) }
  }

  /// Records an app action (see the synchronous `record(session:from:to:at:origin:cause:)`).
  @discardableResult
  public func record(
    session: SessionID, from before: AnyCoordinator?, to after: AnyCoordinator, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) async throws(StoreError) -> [AppendOutcome] {
    try await offloaded { () throws(StoreError) in
      try self.record(
        session: session, from: before, to: after, at: time, origin: origin, cause: cause, context: context)
    }
  }

  /// Records an app action with typed screens (see the synchronous `record`).
  @discardableResult
  public func record<AppScreen: NavigationScreen>(
    session: SessionID, from before: Coordinator<AppScreen>?, to after: Coordinator<AppScreen>, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) async throws(StoreError) -> [AppendOutcome] {
    try await offloaded { () throws(StoreError) in
      try self.record(
        session: session, from: before, to: after, at: time, origin: origin, cause: cause, context: context)
    }
  }

  /// The session's state after event `seq` (see the synchronous `state(of:at:)`).
  public func state(of session: SessionID, at seq: Int? = nil) async throws(StoreError) -> SessionState {
    try await offloaded { () throws(StoreError) in try self.state(of: session, at: seq) }
  }

  /// The session's state in the app's own screen type (see the synchronous `restore`).
  public func restore<AppScreen: NavigationScreen>(
    _ session: SessionID, as type: AppScreen.Type, at seq: Int? = nil, policy: RestorePolicy = .dropUndecodable
  ) async throws(StoreError) -> RestoredSession<AppScreen> {
    try await offloaded { () throws(StoreError) in try self.restore(session, as: type, at: seq, policy: policy) }
  }

  /// The session's events (see the synchronous `history(of:from:to:)`).
  public func history(of session: SessionID, from: Int = 1, to: Int? = nil) async throws(StoreError) -> [AnyEvent] {
    try await offloaded { () throws(StoreError) in try self.history(of: session, from: from, to: to) }
  }

  /// Every session, ordered by id (see the synchronous `sessions()`).
  public func sessions() async throws(StoreError) -> [SessionSummary] {
    try await offloaded { () throws(StoreError) in try self.sessions() }
  }

  /// The session to restore at launch (see the synchronous `latestSession()`).
  public func latestSession() async throws(StoreError) -> SessionSummary? {
    try await offloaded { () throws(StoreError) in try self.latestSession() }
  }

  /// Checks sessions (see the synchronous `verify(_:)`).
  public func verify(_ sessions: [SessionID]? = nil) async throws(StoreError) -> [VerificationResult] {
    try await offloaded { () throws(StoreError) in try self.verify(sessions) }
  }
}
