@_spi(Internals) import NavCore

/// One session's appends decided on plain values, for an engine that reads a session's head
/// once, decides a batch of its events in memory, and then writes the rows in a few statements
/// (PostgreSQL's collector store).
///
/// Each `append(_:)` is what `SessionStore.append` decides for one event, by the same steps
/// (`AppendStep`): next seq, duplicate, conflict, gap, tombstone, chain and snapshot. The engine holds the session (a lock) from the read of its head
/// until the rows in `written` are committed, so nothing else can move the head in between.
package struct SessionAppender: Sendable {
  /// The session.
  package let session: SessionID
  /// The totals after the last event decided (stored or in `written`).
  package private(set) var totals: SessionTotals
  /// The running state after the last event decided; `nil` while the session has no event, and
  /// after a failure that left it unknown.
  package private(set) var state: RunningState?
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
    session: SessionID, totals: SessionTotals, state: RunningState?, storedRows: [Int: StoredEventRow],
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
  /// which case nothing changes. `restored` is the state of the session a first event's start
  /// restores, at the seq it names, where the store holds it (`AppendStep.checkRestore`).
  package mutating func append(_ event: AnyEvent, restored: AnyCoordinator? = nil) throws(HistoryError)
    -> AppendOutcome
  {
    precondition(event.session == session, "an appender takes its own session's events")
    let forgottenAt = forgottenAt
    let placement = try AppendStep.place(
      event, afterCount: totals.count, forgottenAt: { () throws(HistoryError) in forgottenAt },
      storedRow: { seq throws(HistoryError) in storedRow(at: seq) })
    if case .alreadyStored(let stored) = placement {
      guard let state else {
        throw HistoryError.unreadableHistory(session: session, seq: stored.seq ?? totals.count, .stateMissing)
      }
      return AppendOutcome(event: stored, state: state.tree, wasAlreadyStored: true)
    }
    if totals.count == 0 { try AppendStep.checkRestore(event) { (_: SessionLink) throws(HistoryError) in restored } }
    // Edited in place: the step moves the state out while it applies the event (no copy of
    // its routes) and leaves it as its failures say.
    let step = try AppendStep.prepare(event, after: totals, state: &state, snapshotInterval: snapshotInterval)
    totals = step.totals
    written.append(step.prepared)
    return AppendOutcome(event: step.prepared.event, state: step.state, wasAlreadyStored: false)
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
