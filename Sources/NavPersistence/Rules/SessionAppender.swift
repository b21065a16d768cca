@_spi(Internals) import NavCore

/// One session's appends decided on plain values, for an engine that reads a session's head
/// once, decides a batch of its events in memory, and then writes the rows in a few statements
/// (PostgreSQL's collector store).
///
/// Each `append(_:)` is what `SessionStore.append` decides for one event, by the same rules
/// (`AppendRules`, `PreparedEvent`, `SessionTotals`): next seq, duplicate, conflict, gap,
/// tombstone, chain and snapshot. The engine holds the session (a lock) from the read of its head
/// until the rows in `written` are committed, so nothing else can move the head in between.
package struct SessionAppender: Sendable {
  /// The session.
  package let session: SessionID
  /// The totals after the last event decided (stored or in `written`).
  package private(set) var totals: SessionTotals
  /// The state after the last event decided; `nil` while the session has no event, and after a
  /// failure that left it unknown.
  package private(set) var state: AnyCoordinator?
  /// The events decided and still to write, in seq order.
  package private(set) var written: [PreparedEvent] = []
  /// The session's totals as they were read (the engine inserts its row when `stored.count` is
  /// 0 and `written` is not empty).
  package let stored: SessionTotals
  /// The stored events an upload may resend, by seq: those at seqs its lines claim.
  private let storedRows: [Int: StoredEventRow]
  /// When the session was forgotten, if it was (its events are gone; the id is refused).
  private let forgottenAt: Timestamp?
  private let snapshotInterval: Int

  /// An appender continuing the session from its head as read: `totals` from its row (a new
  /// `SessionTotals()` when it has none), `state` the state after its last event (`nil` when it
  /// has none), `storedRows` the stored events at the seqs the lines to decide claim below the
  /// head, and `forgottenAt` its tombstone's time when it has one.
  package init(
    session: SessionID, totals: SessionTotals, state: AnyCoordinator?, storedRows: [Int: StoredEventRow],
    forgottenAt: Timestamp?, snapshotInterval: Int
  ) {
    self.session = session
    self.totals = totals
    self.stored = totals
    self.state = state
    self.storedRows = storedRows
    self.forgottenAt = forgottenAt
    self.snapshotInterval = max(1, snapshotInterval)
  }

  /// Decides `event` (of this session): stored next (in `written`), already stored (a
  /// duplicate, nothing added), or refused with what `SessionStore.append` throws for it, in
  /// which case nothing changes.
  package mutating func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    precondition(event.session == session, "an appender takes its own session's events")
    let count = totals.count
    if count == 0, let forgottenAt { throw StoreError.forgottenSession(session, at: forgottenAt) }
    let next = try AppendRules.nextSeq(of: session, after: count)
    if let claimed = event.seq, claimed != next {
      let stored = try AppendRules.storedCopy(
        of: event, claiming: claimed, next: next, stored: claimed < next ? storedRow(at: claimed) : nil)
      guard let state else { throw StoreError.unreadableHistory(session: session, seq: claimed, .stateMissing) }
      return AppendOutcome(event: stored, state: state, wasAlreadyStored: true)
    }
    guard count == 0 || state != nil else {
      throw StoreError.unreadableHistory(session: session, seq: next, .stateMissing)
    }
    // The state is edited in place (no copy of its routes): taken out while it is, and put back
    // when the operation is refused. A failure after the operation applied (a hash that is not
    // the chain's, an event that cannot be encoded) leaves no state: the appender then refuses
    // every later event, and its engine reads the session afresh next time.
    var running = state
    state = nil
    let prepared: PreparedEvent
    do {
      prepared = try PreparedEvent.prepare(
        event, afterSeq: count, hash: totals.headHash, phase: totals.phase, state: &running,
        snapshotInterval: snapshotInterval)
    } catch {
      if case .rejected = error { state = running }
      throw error
    }
    guard let after = running else { throw StoreError.unreadableHistory(session: session, seq: next, .stateMissing) }
    totals = totals.adding(at: event.at, hash: prepared.hash, depth: prepared.depth, phase: prepared.phase)
    state = after
    written.append(prepared)
    return AppendOutcome(event: prepared.event, state: after, wasAlreadyStored: false)
  }

  /// The row at `seq` as stored or as decided in this batch.
  private func storedRow(at seq: Int) -> StoredEventRow? {
    let firstWritten = stored.count + 1
    guard seq >= firstWritten else { return storedRows[seq] }
    let prepared = written[seq - firstWritten]
    return StoredEventRow(
      session: session, seq: seq, at: prepared.event.at.millisecondsSince1970, origin: prepared.event.origin.rawValue,
      op: prepared.operationBytes, cause: prepared.event.cause.map { Array($0.canonicalString.utf8) },
      hash: prepared.hash)
  }
}
