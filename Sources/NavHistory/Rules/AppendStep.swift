import NavCore

/// One event decided against its session's head, in the two steps every engine's append takes,
/// on plain values: the SQLite store (`StoreEngine.append`) and the collector's engines
/// (`SessionAppender`) reach the same answer because they run this, not a copy of it.
///
/// 1. `place`: where the event goes. A session forgotten is refused; an event claiming a seq
///    other than the next is a resend of a stored one (returned as stored) or a conflict or a gap
///    (refused); otherwise it is the next event.
/// 2. `checkRestore`: a session's first event that restores another session the store holds at
///    the seq it names must fit that session's state there (`Coordinator.misfit(ofRestored:)`).
/// 3. `prepare`: the next event applied to the session's state, encoded, chained and given its
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

  /// Refuses `event`, placed as its session's first, when it is a start restoring a session
  /// whose state there `sourceState` gives, and does not fit it. `sourceState` is asked only for
  /// such a start; `nil` when the store does not hold the source at that seq (not yet uploaded,
  /// forgotten, pruned, another store's), and then there is nothing to check it against.
  ///
  /// A restore a launch made fits by construction: the source is hash-chained, the same in every
  /// store that holds it. One that does not fit was written by hand, or forged.
  package static func checkRestore<Failure: HistoryFailure>(
    _ event: AnyEvent, sourceState: (SessionLink) throws(Failure) -> AnyCoordinator?
  ) throws(Failure) {
    guard case .start(let state, let link?, _, _) = event.operation.kind, let source = try sourceState(link),
      let misfit = source.misfit(ofRestored: state)
    else { return }
    throw Failure(.rejected(session: event.session, seq: 1, misfit.rejection(restoring: link)))
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
