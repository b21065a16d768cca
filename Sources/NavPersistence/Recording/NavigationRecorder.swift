import Dispatch
import NavCore

/// Records a live app's navigation into a session without ever blocking the app.
///
/// The app hands over each new state (`record`, from anywhere, returning at once); the recorder
/// diffs it against the last state it recorded and writes the operations in the background, on
/// a queue of its own. Failures never crash the app and are never silent: they go to `failures`.
/// <doc:Recording> explains the batching, the recovery after a failure, and what is durable when.
public final class NavigationRecorder<AppScreen: NavigationScreen>: NavigationRecording, HostProfileRecording, Sendable
{
  /// The store written to.
  package let store: SessionStore
  /// The session recorded.
  public let session: SessionID
  /// The session this one continues, written into its `start` when the session is new.
  package let restoredFrom: SessionLink?
  /// What the session runs on, written into its `start` when the session is new.
  package let context: SessionContext?
  /// The launch that began the session, if the recorder was given it: what it did goes into
  /// the `start`, and the launch settles when the session goes to the background or ends.
  let launch: (record: LaunchRecord, id: Int64)?
  /// Every failure, as it happens. Holds the newest 256 when nobody reads it.
  public let failures: AsyncStream<RecordingFailure>

  private let failureSink: AsyncStream<RecordingFailure>.Continuation
  private let onFailure: (@Sendable (RecordingFailure) -> Void)?
  private let now: @Sendable () -> Timestamp
  private let queue: DispatchQueue
  private let shared = Protected(SharedState())
  /// The stored screens already checked to decode back as themselves (debug builds; the
  /// writer's own, emptied past 1,024), and the screens reported as lossy.
  private let roundTrips = Protected((checked: Set<JSONValue>(), reported: Set<String>()))

  /// What the caller's thread and the writing queue share, always under the mutex.
  private struct SharedState {
    /// States handed over and not yet taken by the writer, in the order they came.
    var pending: [Handed] = []
    /// Whether the writer has been asked to run (and has not yet found `pending` empty).
    var drainScheduled = false
    /// The writer's view of the session; `nil` means "read it from the store".
    var head: RecordedHead?
    /// The first failure since the last `flush`.
    var failureSinceFlush: RecordingFailure?
    /// The newest state of a batch whose transaction failed, until a later state supersedes
    /// it or `flush` writes it: the screen the user is on must not be lost to a passing lock.
    var unwritten: RecordedChange?
    /// The host profile of the model recording through this recorder, kept in the context.
    var host: HostProfile?
    /// The screens (type and case) already reported as not storable: each is reported once.
    var reportedUnstorable: Set<String> = []
  }

  private struct Handed: Sendable {
    enum Content: Sendable {
      case state(Coordinator<AppScreen>)
      case lifecycle(LifecycleEvent)
    }
    var content: Content
    var at: Timestamp
    var origin: EventOrigin
    var cause: JSONValue?
  }

  /// A recorder for `session` in `store`. A new session begins with the first state handed
  /// over (its `start`, carrying `restoredFrom` and `context` when given: the app's version,
  /// system, device, locale, an opaque user id; empty fields are left out and longer than 256
  /// characters cut; nothing fills it for the app); an existing one is continued from its stored
  /// state. `now` stamps each state as it is handed over (the system clock unless a test says
  /// otherwise). `onFailure` is called on the recorder's queue, beside `failures`.
  ///
  /// Given the `launch` that decided what the session starts from (`SessionStore.launch`), the
  /// `start` also says what it did (restored, only the roots, fresh, declined, and why) and
  /// lists the routes the restore dropped, and names the session restored (`restoredFrom` is
  /// then taken from the launch); the launch is noted as settled when the session goes to the
  /// background or ends, in the same transaction, so a user who quits soon after a restore is
  /// not taken for a crash.
  public init(
    store: SessionStore, session: SessionID, launch: Launch<AppScreen>? = nil, restoredFrom: SessionLink? = nil,
    context: SessionContext? = nil, now: @escaping @Sendable () -> Timestamp = { Timestamp.now },
    onFailure: (@Sendable (RecordingFailure) -> Void)? = nil
  ) {
    self.store = store
    self.session = session
    self.launch = launch.map { ($0.record, $0.id) }
    self.restoredFrom = launch.map(\.link) ?? restoredFrom
    self.context = context.map(\.writable).flatMap { $0.isEmpty ? nil : $0 }
    self.now = now
    self.onFailure = onFailure
    (failures, failureSink) = AsyncStream.makeStream(of: RecordingFailure.self, bufferingPolicy: .bufferingNewest(256))
    queue = DispatchQueue(label: "NavigationRecorder.\(session.rawValue)")
  }

  deinit {
    failureSink.finish()
  }

  /// Hands over the app's navigation state after a change. Returns at once; the change is
  /// diffed and written in the background. `cause` is the app action behind it (kept for
  /// audits, never interpreted); `origin` says whether the app or the user (a gesture) did it.
  public func record(_ state: Coordinator<AppScreen>, cause: JSONValue? = nil, origin: EventOrigin = .app) {
    hand(.state(state), cause: cause, origin: origin)
  }

  /// Hands over the app's navigation state after a change, with the app's action as its cause,
  /// as `NavigationModel.perform` takes it: any `Encodable`, kept as its JSON. An action that
  /// does not encode is reported on `failures`, and the state recorded without a cause.
  public func record(_ state: Coordinator<AppScreen>, cause action: some Encodable, origin: EventOrigin = .app) {
    do {
      hand(.state(state), cause: try JSONValue.cause(encoding: action), origin: origin)
    } catch {
      hand(.state(state), cause: nil, origin: origin)
      let failure = RecordingFailure(
        session: session, error: .causeNotEncodable(WireFormatError(field: "cause", message: "\(error)")),
        unrecordedChanges: 0)
      failureSink.yield(failure)
      onFailure?(failure)
    }
  }

  /// Hands over what happened to the app: it went to the background, came back, or ended the
  /// session. Returns at once; written in order with the states around it. The phase the
  /// session is already in records nothing (so every scene phase change may be handed over);
  /// after `end`, states are reported as failures, not written.
  public func record(_ event: LifecycleEvent) {
    hand(.lifecycle(event), cause: nil, origin: .app)
  }

  /// Hands over a lifecycle event with the app's action behind it (a sign-out's `end`), kept
  /// with the event as its cause.
  public func record(_ event: LifecycleEvent, cause: JSONValue?) {
    hand(.lifecycle(event), cause: cause, origin: .app)
  }

  /// Keeps the model's host profile in the context of the session's `start`.
  package func recordHost(_ host: HostProfile) {
    shared.withLock { $0.host = host }
  }

  private func hand(_ content: Handed.Content, cause: JSONValue?, origin: EventOrigin) {
    let mustSchedule = shared.withLock { shared in
      // Stamped under the lock, so states recorded from several threads get their times in the
      // order they are written (unless the system clock itself steps back).
      shared.pending.append(Handed(content: content, at: now(), origin: origin, cause: cause))
      guard !shared.drainScheduled else { return false }
      shared.drainScheduled = true
      return true
    }
    if mustSchedule { queue.async { self.drain() } }
  }

  /// Returns once every state handed over before the call is committed, or reported as
  /// failed. When a failed transaction left the newest state unwritten (a lock, a full disk,
  /// another writer), `flush` tries it once more against the session's stored state, so the
  /// screen the user is on reaches the store as soon as the store can take it. Throws the
  /// first failure since the previous `flush` (it was also sent to `failures`), so the caller
  /// knows whether everything it handed over is durable.
  public func flush() async throws(RecordingFailure) {
    let failure: RecordingFailure? = await withCheckedContinuation { continuation in
      queue.async {
        self.drain()
        self.retryUnwritten()
        continuation.resume(
          returning: self.shared.withLock { shared in
            defer { shared.failureSinceFlush = nil }
            return shared.failureSinceFlush
          })
      }
    }
    if let failure { throw failure }
  }

  // MARK: The writer (on `queue` only)

  private func drain() {
    while true {
      let batch = shared.withLock { shared in
        let batch = shared.pending
        shared.pending.removeAll()
        if batch.isEmpty { shared.drainScheduled = false }
        return batch
      }
      guard !batch.isEmpty else { return }
      write(batch)
    }
  }

  private func write(_ batch: [Handed]) {
    var changes: [RecordedChange] = []
    changes.reserveCapacity(batch.count)
    for handed in batch {
      do throws(StoreError) {
        let content: RecordedChange.Content
        switch handed.content {
        case .state(let state):
          var unstorable: [UnstorableScreen.Found] = []
          let tree = try SessionStore.untyped(state, markingUnstorable: &unstorable)
          content = .state(tree)
          reportOnce(unstorable)
          #if DEBUG
          checkRoundTrip(state, stored: tree)
          #endif
        case .lifecycle(let event): content = .lifecycle(event)
        }
        changes.append(RecordedChange(content: content, at: handed.at, origin: handed.origin, cause: handed.cause))
      } catch {
        report(RecordingFailure(session: session, error: error, unrecordedChanges: 1))
      }
    }
    guard !changes.isEmpty else { return }
    // A newer state supersedes one a failed batch left unwritten: the diff from the stored
    // state to it covers both.
    shared.withLock { $0.unwritten = nil }
    if let error = commit(changes) {
      report(RecordingFailure(session: session, error: error, unrecordedChanges: changes.count))
    }
  }

  /// Writes the state a failed batch left unwritten, if any; a second failure is not sent to
  /// `failures` again (it was reported the first time), but `flush` throws it.
  private func retryUnwritten() {
    guard let unwritten = shared.withLock({ $0.unwritten }) else { return }
    guard let error = commit([unwritten]) else { return }
    shared.withLock { shared in
      if shared.failureSinceFlush == nil {
        shared.failureSinceFlush = RecordingFailure(session: session, error: error, unrecordedChanges: 1)
      }
    }
  }

  /// One transaction for `changes`; the transaction's own failure is returned, changes the
  /// model refuses are reported one by one.
  private func commit(_ changes: [RecordedChange]) -> StoreError? {
    let (known, host) = shared.withLock { ($0.head, $0.host) }
    var context = context
    if let host {
      var hosted = context ?? SessionContext()
      hosted.host = host
      context = hosted
    }
    do throws(StoreError) {
      let outcome = try store.recordBatch(
        session: session, changes: changes, known: known,
        start: RecordedStart(link: restoredFrom, context: context, launch: launch?.record), settling: launch?.id)
      shared.withLock { shared in
        shared.head = outcome.head
        shared.unwritten = nil
      }
      for error in outcome.skipped {
        report(RecordingFailure(session: session, error: error, unrecordedChanges: 1))
      }
      return nil
    } catch {
      // Nothing of the batch was written; the next write starts from what the store holds.
      shared.withLock { shared in
        shared.head = nil
        shared.unwritten = changes.last
      }
      return error
    }
  }

  /// Reports the first screen of `state` that does not come back from its JSON as itself, once
  /// per screen: a debug build's check, so that a lossy screen is found before a restore shows it.
  private func checkRoundTrip(_ state: Coordinator<AppScreen>, stored: AnyCoordinator) {
    let lossy = roundTrips.withLock { roundTrips -> LossyScreen? in
      if roundTrips.checked.count > 1_024 { roundTrips.checked.removeAll() }
      guard let lossy = LossyScreen.first(in: state, stored: stored, checked: &roundTrips.checked),
        roundTrips.reported.insert(lossy.screen).inserted
      else { return nil }
      return lossy
    }
    guard let lossy else { return }
    let failure = RecordingFailure(
      session: session, error: .lossyScreen(screen: lossy.screen, field: lossy.field), unrecordedChanges: 0)
    failureSink.yield(failure)
    onFailure?(failure)
  }

  /// Reports each screen kept as not storable, the first time it is met, on `failures` (and to
  /// `onFailure`).
  private func reportOnce(_ unstorable: [UnstorableScreen.Found]) {
    for found in unstorable {
      let isNew = shared.withLock { $0.reportedUnstorable.insert(found.screen).inserted }
      guard isNew else { continue }
      let error = StoreError.unstorableScreen(
        screen: found.screen, WireFormatError(field: "screen", message: found.error))
      // Not for `flush` to throw: the change itself is durable.
      let failure = RecordingFailure(session: session, error: error, unrecordedChanges: 0)
      failureSink.yield(failure)
      onFailure?(failure)
    }
  }

  private func report(_ failure: RecordingFailure) {
    shared.withLock { shared in
      if shared.failureSinceFlush == nil { shared.failureSinceFlush = failure }
    }
    failureSink.yield(failure)
    onFailure?(failure)
  }
}
