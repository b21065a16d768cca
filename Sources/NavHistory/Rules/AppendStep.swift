import NavCore

/// One event decided against its session's head, in the two steps every engine's append takes,
/// on plain values: the SQLite store (`StoreEngine.append`) and the collector's engines
/// (`SessionAppender`) reach the same answer because they run this, not a copy of it.
///
/// 1. `place`: where the event goes. A session forgotten is refused; an event claiming a seq
///    other than the next is a resend of a stored one (returned as stored) or a conflict or a gap
///    (refused); otherwise it is the next event.
/// 2. `prepare`: the next event applied to the session's state, encoded, chained and given its
///    snapshot when one is due, and the session's totals after it.
package enum AppendStep {
  /// Where an event goes.
  package enum Placement {
    /// The event is the session's next, at this seq.
    case next(seq: Int)
    /// The event is already stored: this is the stored event (a duplicate, nothing to write).
    case alreadyStored(AnyEvent)
  }

  /// Places `event` after `count` stored events of its session. `forgottenAt` is asked only for
  /// a session with no events, and `storedRow` only for a seq below the next one: an engine
  /// reads them then, not on every append, and a failure to read is the engine's own.
  package static func place<Failure: HistoryFailure>(
    _ event: AnyEvent, afterCount count: Int, forgottenAt: () throws(Failure) -> Timestamp?,
    storedRow: (Int) throws(Failure) -> StoredEventRow?
  ) throws(Failure) -> Placement {
    let session = event.session
    if count == 0, let forgotten = try forgottenAt() { throw Failure(.forgottenSession(session, at: forgotten)) }
    let next = try Failure.ruling(AppendRules.nextSeq(of: session, after: count))
    guard let claimed = event.seq, claimed != next else { return .next(seq: next) }
    let stored = claimed < next ? try storedRow(claimed) : nil
    return .alreadyStored(
      try Failure.ruling(AppendRules.storedCopy(of: event, claiming: claimed, next: next, stored: stored)))
  }

  /// Prepares the next event of a session whose row holds `totals`, editing `state` (the
  /// running state after its last event; `nil` when it has none) in place into the one after
  /// it, and returns the prepared event, the totals and the state after it.
  ///
  /// An operation the state refuses leaves `state` as it was. A failure after the operation
  /// applied (a hash that is not the chain's, an event that cannot be encoded) leaves `state`
  /// `nil`: the caller must not trust it, and reads the session afresh.
  package static func prepare(
    _ event: AnyEvent, after totals: SessionTotals, state: inout RunningState?, snapshotInterval: Int
  ) throws(HistoryError) -> (prepared: PreparedEvent, totals: SessionTotals, state: AnyCoordinator) {
    guard totals.count == 0 || state != nil else {
      throw HistoryError.unreadableHistory(session: event.session, seq: totals.count + 1, .stateMissing)
    }
    var running = state
    state = nil
    let prepared: PreparedEvent
    do {
      prepared = try PreparedEvent.prepare(
        event, afterSeq: totals.count, hash: totals.headHash, phase: totals.phase, state: &running,
        snapshotInterval: snapshotInterval)
    } catch {
      if case .rejected = error { state = running }
      throw error
    }
    guard let after = running else {
      throw HistoryError.unreadableHistory(session: event.session, seq: prepared.seq, .stateMissing)
    }
    state = after
    return (prepared, totals.adding(prepared), after.tree)
  }
}
