import Dispatch
import NavCore
@_spi(Internals) import NavHistory

/// The store's doors for Swift concurrency: `read(_:)` and `write(_:)`. SQLite blocks the thread
/// that calls it (for a long import, or while another process holds the lock), and a blocked
/// thread of the cooperative pool holds up every task that needs one. The doors run their
/// closure on a dispatch queue of the store's own and suspend the calling task meanwhile.
///
/// A task cancelled while its call runs still gets the call's result: a write is not left half
/// done. The closures run on the store's queue, hence `@Sendable`.
extension SessionStore {
  /// Runs `work` with a reader over one snapshot of the store, off the caller's thread: every
  /// call in `work` sees the same store (as it stood at the read's first look), whatever commits
  /// meanwhile. The store's errors come out as they are; any other error `work` throws comes
  /// back as `.caller`.
  ///
  /// `work` runs on the store's queue, not in the caller's task: it sees no task-local values,
  /// and cancelling the task does not stop it.
  ///
  /// ```swift
  /// let latest = try await store.read { try $0.latestSession() }
  /// ```
  public func read<T: Sendable>(_ work: @escaping @Sendable (StoreReader) throws -> T) async throws(StoreError) -> T {
    try await offloaded { () throws(StoreError) in
      try self.read { reader throws(StoreError) in try StoreError.passingThrough { try work(reader) } }
    }
  }

  /// Runs `work` with a writer in one write transaction, off the caller's thread: what `work`
  /// writes commits together when it returns, and nothing of it is kept when it throws, or when
  /// one of the writer's calls failed (see `StoreWriter`). The store's errors come out as they
  /// are; any other error `work` throws comes back as `.caller`. Inside `work`, read through the
  /// writer's `reader`, which sees what `work` has written.
  ///
  /// ```swift
  /// try await store.write { try $0.record(session: id, from: before, to: after, at: .now) }
  /// ```
  @discardableResult
  public func write<T: Sendable>(_ work: @escaping @Sendable (StoreWriter) throws -> T) async throws(StoreError) -> T {
    try await offloaded { () throws(StoreError) in
      try self.write { writer throws(StoreError) in try StoreError.passingThrough { try work(writer) } }
    }
  }

  /// Runs `body` with a reader over one read transaction, on the caller's thread.
  package func read<T>(_ body: (StoreReader) throws(StoreError) -> T) throws(StoreError) -> T {
    try withReadTransaction { engine throws(StoreError) in try body(StoreReader(engine: engine)) }
  }

  /// Runs `body` with a writer in one immediate write transaction, on the caller's thread:
  /// committed when it returns, rolled back (nothing of it kept) when it throws or when a call
  /// of the writer failed, whose error it then throws.
  @discardableResult
  package func write<T>(_ body: (StoreWriter) throws(StoreError) -> T) throws(StoreError) -> T {
    try withWriteTransaction { engine throws(StoreError) in
      let writer = StoreWriter(engine: engine)
      let result = try body(writer)
      if let failure = writer.failures.error { throw failure }
      return result
    }
  }

  /// The queue the async calls run on: concurrent, so reads run beside a write here too.
  private static let queue: DispatchQueue = {
    let queue = DispatchQueue(label: "NavPersistence.SessionStore", attributes: .concurrent)
    queue.setSpecific(key: queueKey, value: true)
    return queue
  }()

  /// Marks the store's queue.
  private static let queueKey = DispatchSpecificKey<Bool>()

  /// Whether the caller runs on the store's queue: how the tests see where a door's closure ran.
  package static var isOnStoreQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == true }

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
}
