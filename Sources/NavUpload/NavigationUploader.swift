import Foundation
import NavContract
import NavCore
import NavPersistence

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Ships a store's sessions to a NavStore collector, and never drops one.
///
/// The store is the queue: each session's events after the seq the collector last acknowledged
/// (kept in the store, so it survives launches) are sent in gzip'd batches, oldest sessions
/// first, sessions recorded before the uploader existed included. An event leaves the queue
/// only when a collector's answer says it holds it. The uploader runs on its own actor, off the
/// main actor and the recorder, and reads a batch at a time, so its memory does not grow with
/// the backlog. Give each store one uploader: two would send the same batches, and each would
/// count the day's bytes without the other's.
///
/// ```swift
/// let uploader = NavigationUploader(store: store, collector: collectorURL, token: ingestToken)
/// await uploader.start()                 // in the background from now on
/// // when the app moves to the background:
/// _ = await uploader.flush()
/// ```
public actor NavigationUploader {
  /// Problems as they happen: a rejected line, a refused token, a collector out of reach.
  public nonisolated let problems: AsyncStream<UploadProblem>
  private let report: AsyncStream<UploadProblem>.Continuation

  private let store: SessionStore
  private let client: CollectorClient
  private let configuration: UploadConfiguration
  /// Every retry decision.
  private let policy: RetryPolicy
  private var loop: Task<Void, Never>?
  private var flushing: Task<FlushOutcome, Never>?
  private var lastUpload: ContinuousClock.Instant?
  /// Failed attempts in a row, for the backoff.
  private var failures = 0
  /// When the last flush said the uploader would try again, while it has not succeeded since.
  private var retryAt: ContinuousClock.Instant?

  /// An uploader of `store`'s sessions to the collector at `collector` (its base address, as
  /// `http://collector.example:8740`), presenting `token` (an `ingest` token of the app).
  ///
  /// `session` is the `URLSession` requests go through: by default an ephemeral one that keeps
  /// nothing (no cache, no cookies) and waits `requestTimeout` for an answer. Pass your own for
  /// a pinning delegate, a proxy, or a `URLProtocol` class standing in for the network in tests.
  public init(
    store: SessionStore, collector: URL, token: String, configuration: UploadConfiguration = UploadConfiguration(),
    session: URLSession? = nil
  ) {
    self.store = store
    self.configuration = configuration
    client = CollectorClient(base: collector, token: token, session: session, timeout: configuration.requestTimeout)
    policy = RetryPolicy(maximumBackoff: configuration.maximumBackoff, maximumRetryAfter: configuration.maximumBackoff)
    batchLimit = configuration.batchEvents
    (problems, report) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
  }

  deinit {
    loop?.cancel()
    report.finish()
  }

  /// Uploads in the background from now on: when `flushAt` events wait, at least every
  /// `interval`, and after a failure once its backoff has passed. It runs until `stop()` (or a
  /// refused token), and keeps the uploader alive meanwhile. Calling it again while it runs does
  /// nothing; after a refused token, it starts again.
  public func start() {
    guard loop == nil else { return }
    loop = Task { [weak self] in await self?.run() }
  }

  /// Stops the background uploads; what waits stays in the store.
  public func stop() {
    loop?.cancel()
    loop = nil
  }

  /// What waits, across the store.
  public func pending() async throws(StoreError) -> PendingUploads {
    try await store.pendingUploads()
  }

  /// The sessions that wait at a line the collector rejected, each with the collector's reason
  /// and sentence, oldest first. The uploader passes them by until `release(_:)`.
  public func holds() async throws(StoreError) -> [UploadHold] {
    try await store.heldUploads()
  }

  /// Lets a held session go back in the queue, from the line it waits at: once the collector's
  /// side was put right (a session the collector did not know, made known), or to try again.
  /// A session that is not held is left as it is.
  public func release(_ session: SessionID) async throws(StoreError) {
    try await store.releaseUpload(of: session)
  }

  /// Sends everything that waits now, batch after batch, until nothing waits, the collector
  /// cannot take more, or the token is refused. It never waits for a retry: when the collector
  /// asks to wait (or cannot be reached), it returns at once with when the uploader will try
  /// again (`willRetry(after:)`; the background loop does it then).
  ///
  /// `limit` bounds the whole call, for an app the system gives a few seconds in the
  /// background: when it passes, the request under way is cancelled and `deadlineReached`
  /// returned; what was not acknowledged waits in the store, nothing is lost. A flush asked for
  /// while one runs (the background loop's, say) waits for that one instead of sending the same
  /// batches again.
  public func flush(within limit: Duration? = nil) async -> FlushOutcome {
    let running: Task<FlushOutcome, Never>
    if let flushing {
      running = flushing
    } else {
      running = Task {
        let outcome = await self.sendWaiting()
        self.flushing = nil
        if case .willRetry(let wait) = outcome {
          self.retryAt = .now + wait
        } else if outcome == .done {
          self.retryAt = nil
        }
        return outcome
      }
      flushing = running
    }
    guard let limit else { return await running.value }
    let outcome = await withTaskGroup(of: FlushOutcome?.self) { group in
      group.addTask { await running.value }
      group.addTask {
        try? await Task.sleep(for: limit)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    guard let outcome else {
      running.cancel()
      return .deadlineReached
    }
    return outcome
  }

  private func sendWaiting() async -> FlushOutcome {
    while true {
      guard !Task.isCancelled else { return .deadlineReached }
      var batch: Batch
      var body: [UInt8]?
      do {
        batch = try await nextBatch()
        guard !batch.lines.isEmpty else { return .done }
        switch try await fitToBudget(&batch) {
        case .uncapped: body = nil
        case .fits(let made): body = made
        case .spent: return .overBudget
        }
      } catch {
        return failed(Self.problem(making: error))
      }
      let exchange: CollectorClient.Exchange
      do {
        let hooks = CollectorClient.AttemptHooks(
          before: { bytes in try await self.mayAttempt(bytes) }, after: { bytes in try await self.spent(bytes) })
        // Signed by the device's key, which the sessions' starts name (made on the first recording).
        let signer = try? store.deviceSigner()
        exchange = try await client.attemptUpload(batch.lines, body: body, hooks: hooks, signer: signer)
      } catch is BudgetSpent {
        return .overBudget
      } catch let error as StoreError {
        // The day's spending could not be written: sent again later.
        return failed(.storeFailed(error))
      } catch {
        if Task.isCancelled { return .deadlineReached }
        return failed(
          (error as? URLError).map { .unreachable(UploadProblem.Connection($0)) } ?? .unreachable(.timedOut))
      }
      lastUpload = ContinuousClock.now
      let decision = policy.decide(
        after: exchange.attempt, failures: failures + 1, lines: batch.lines.count, jitter: Double.random(in: 0.5...1))
      switch decision {
      case .take:
        guard let answer = UploadAnswer(exchange.body) else { return failed(.unexpectedAnswer(status: 200)) }
        do {
          // An answer that moved nothing would have the same batch sent again at once, forever.
          guard try await take(answer, for: batch) else { return failed(.nothingAcknowledged) }
        } catch {
          return failed(Self.problem(making: error))
        }
        failures = 0
      case .split:
        // Over the collector's limits: smaller batches from now on, each answer taken as it comes.
        batchLimit = max(1, batch.lines.count / 2)
      case .hold:
        // A single line over them holds its session, as a rejected line does; the batches were
        // not to blame, so they grow back (and halve again if they must).
        batchLimit = configuration.batchEvents
        guard let entry = batch.sessions.first else { return failed(.unexpectedAnswer(status: 413)) }
        do {
          try await hold(
            UploadHold(
              session: entry.session, seq: entry.firstSeq, reason: .tooLarge,
              message: "the event alone is over the collector's limits (GET /v1/limits says them)"))
        } catch {
          return failed(Self.problem(making: error))
        }
      case .stop:
        report.yield(.tokenRefused(status: exchange.status))
        loop?.cancel()
        loop = nil
        return .stopped
      case .fail:
        // The uploader's policy retries every other answer: not reached.
        return failed(.unexpectedAnswer(status: exchange.status))
      case .retry(let wait):
        failures += 1
        report.yield(
          RetryPolicy.asksToWait.contains(exchange.status)
            ? .busy(status: exchange.status) : .unexpectedAnswer(status: exchange.status))
        return .willRetry(after: wait)
      }
    }
  }

  /// Reports `problem`, counts a failure, and says when the uploader tries again.
  private func failed(_ problem: UploadProblem) -> FlushOutcome {
    report.yield(problem)
    failures += 1
    return .willRetry(after: policy.backoff(failures: failures, jitter: Double.random(in: 0.5...1)))
  }

  /// The lines of one request: the oldest waiting sessions' next events, up to `batchLimit`.
  private struct Batch {
    var lines: [String] = []
    /// Each session in the batch: the seqs of its first and last lines, and the number of its
    /// first line in the request.
    var sessions: [(session: SessionID, firstSeq: Int, lastSeq: Int, firstLine: Int)] = []

    /// The batch's first `count` lines, and the sessions they hold.
    func prefix(_ count: Int) -> Batch {
      var cut = Batch(lines: Array(lines.prefix(count)))
      for var entry in sessions where entry.firstLine <= count {
        entry.lastSeq = entry.firstSeq + min(entry.lastSeq - entry.firstSeq, count - entry.firstLine)
        cut.sessions.append(entry)
      }
      return cut
    }
  }

  /// Thrown before a request that today's budget has no room for.
  private struct BudgetSpent: Error {}

  /// The day and network on which the last flush found not even one line fitting the budget:
  /// the background loop does not try again until either changes.
  private var spentOut: (day: Int, expensive: Bool)?

  /// The most events in one request: `batchEvents`, halved each time the collector finds a
  /// batch over its limits (413), and back to `batchEvents` when a single event was over them.
  private var batchLimit: Int

  /// What today's budget leaves of a batch.
  private enum Fitted {
    /// No cap: the batch goes as it is.
    case uncapped
    /// The batch, cut to fit, goes with this body.
    case fits([UInt8])
    /// Not even one line fits today.
    case spent
  }

  /// Under a daily budget: `batch` cut (by halves) to what today's room takes, and its body.
  private func fitToBudget(_ batch: inout Batch) async throws -> Fitted {
    guard configuration.budget.caps else { return .uncapped }
    let today = try await todaysRoom()
    var body = try CollectorClient.body(of: batch.lines)
    while body.count > today.room, batch.lines.count > 1 {
      batch = batch.prefix(batch.lines.count / 2)
      body = try CollectorClient.body(of: batch.lines)
    }
    guard body.count <= today.room else {
      spentOut = (today.day, today.expensive)
      return .spent
    }
    return .fits(body)
  }

  /// The bytes today's budget still allows on the network the device is on now.
  private func todaysRoom() async throws -> (room: Int, day: Int, expensive: Bool) {
    let budget = configuration.budget
    let now = configuration.now()
    let expensive = budget.networkIsExpensive()
    let room = budget.room(after: try await store.uploadSpending(on: now), expensive: expensive)
    return (room, UploadSpending.day(of: now), expensive)
  }

  /// Refuses an attempt whose body no longer fits today's budget (the network became
  /// expensive since the batch was cut, or a resend would pass the cap).
  private func mayAttempt(_ bytes: Int) async throws {
    guard configuration.budget.caps else { return }
    guard bytes <= (try await todaysRoom()).room else { throw BudgetSpent() }
  }

  /// Counts a body that may have gone out against today's budget.
  private func spent(_ bytes: Int) async throws {
    guard configuration.budget.caps else { return }
    try await store.recordUploadSpending(
      bytes: bytes, expensive: configuration.budget.networkIsExpensive(), at: configuration.now())
  }

  /// Whether the budget was found spent on this day and this kind of network.
  private var budgetSpentNow: Bool {
    guard let spentOut else { return false }
    return spentOut.day == UploadSpending.day(of: configuration.now())
      && spentOut.expensive == configuration.budget.networkIsExpensive()
  }

  private func nextBatch() async throws -> Batch {
    var batch = Batch()
    for progress in try await store.uploadQueue(limit: 256) {
      let room = batchLimit - batch.lines.count
      guard room > 0 else { break }
      let from = progress.acknowledgedSeq + 1
      let to = min(progress.eventCount, progress.acknowledgedSeq + room)
      let privacy = configuration.privacy(progress.session)
      batch.sessions.append((progress.session, from, to, batch.lines.count + 1))
      let events = try await store.read { try $0.history(of: progress.session, from: from, to: to) }
      for event in events {
        batch.lines.append(try WireFormat.canonicalString(UploadRedaction.apply(privacy, to: event)))
      }
    }
    return batch
  }

  /// Moves each session's acknowledged seq as far as the answer vouches for this device's own
  /// lines (the collector's head, but never past a line of the batch it rejected: a head that
  /// is another device's event acknowledges nothing of ours), and holds a session at its first
  /// rejected line. Whether the answer moved anything.
  private func take(_ answer: UploadAnswer, for batch: Batch) async throws -> Bool {
    var moved = false
    var firstRejected: [SessionID: UploadHold] = [:]
    for rejected in answer.rejected {
      // The line's session: the last one of the batch whose first line is at or before it.
      guard let entry = batch.sessions.last(where: { $0.firstLine <= rejected.line }),
        firstRejected[entry.session] == nil
      else { continue }
      firstRejected[entry.session] = UploadHold(
        session: entry.session, seq: entry.firstSeq + (rejected.line - entry.firstLine),
        reason: rejected.rejection.reason, message: rejected.rejection.message)
    }
    for entry in batch.sessions {
      let head = answer.heads[entry.session]?.seq ?? 0
      let vouched = min(head, entry.lastSeq, (firstRejected[entry.session]?.seq ?? Int.max) - 1)
      if vouched >= entry.firstSeq {
        try await store.acknowledgeUpload(of: entry.session, through: vouched)
        moved = true
      }
      if let rejected = firstRejected[entry.session] {
        moved = true
        try await hold(rejected)
      }
    }
    return moved
  }

  /// Holds a session at a line the collector will not take, and reports it: the other sessions
  /// go on, and this one waits for a person.
  private func hold(_ hold: UploadHold) async throws {
    try await store.holdUpload(hold)
    report.yield(.rejected(session: hold.session, seq: hold.seq, reason: hold.reason, message: hold.message))
  }

  /// The background loop: an upload when `flushAt` events wait or `interval` has passed since
  /// the last, and after a failure once its wait is over. Between them it sleeps until the store
  /// is written or the next upload is due: nothing is read while nothing changes (but for a
  /// spent budget, looked at every `pollInterval`, since a cheaper network or a new day ends it).
  private func run() async {
    while !Task.isCancelled {
      // Listening before looking, so a write between the look and the wait wakes the wait.
      let changes = store.changes.stream()
      let waiting = (try? await store.pendingUploads()) ?? PendingUploads(sessions: 0, events: 0, heldSessions: 0)
      let sinceLast = lastUpload.map { ContinuousClock.now - $0 }
      let due = sinceLast.map { $0 >= configuration.interval } ?? true
      // Held sessions wait for a person, not for the loop: only the others call for an upload.
      let sendable = waiting.sessions > waiting.heldSessions
      var pause: Duration?
      var wakesOnChange = true
      if let retryAt, sendable, ContinuousClock.now < retryAt {
        // A flush failed (the loop's or the app's): the retry waits its time.
        pause = ContinuousClock.now.duration(to: retryAt)
        wakesOnChange = false
      } else if budgetSpentNow {
        pause = configuration.pollInterval
      } else if sendable, waiting.events >= configuration.flushAt || due || retryAt != nil {
        switch await flush() {
        case .done, .overBudget, .deadlineReached:
          pause = configuration.pollInterval
        case .willRetry(let wait):
          pause = wait
          wakesOnChange = false  // a retry waits its time, whatever is recorded meanwhile
        case .stopped:
          return
        }
      } else if sendable, let sinceLast {
        pause = configuration.interval - sinceLast
      }
      await Self.sleep(for: pause, orUntilAChangeIn: wakesOnChange ? changes : nil)
    }
  }

  /// Waits `pause` (for ever when `nil`), or until `changes` yields, whichever comes first.
  private static func sleep(for pause: Duration?, orUntilAChangeIn changes: AsyncStream<Void>?) async {
    await withTaskGroup(of: Void.self) { group in
      if let pause { group.addTask { try? await Task.sleep(for: pause) } }
      if let changes { group.addTask { for await _ in changes { return } } }
      await group.next()
      group.cancelAll()
    }
  }

  /// The problem an error met while making a batch or holding a session is.
  private static func problem(making error: any Error) -> UploadProblem {
    (error as? StoreError).map(UploadProblem.storeFailed) ?? .batchNotEncoded
  }
}
