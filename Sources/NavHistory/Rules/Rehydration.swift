@_spi(Internals) import NavCore

/// A session's state at a seq, worked out from its latest snapshot at or before it and the
/// events after that snapshot, and then event by event as a history is replayed: the same for
/// every storage engine.
///
/// Each event is applied in place, so a replay costs what its events change, not the size of
/// the tree at each one (a caller that keeps a state it was handed pays for its own copy).
package struct Rehydration: Sendable {
  private let session: SessionID
  /// The state after the events taken (`nil` before a `start`).
  package private(set) var state: AnyCoordinator?
  /// What was stored since the snapshot it started from: the append rules' schedule.
  private var schedule = SnapshotSchedule()
  /// The seq the next event must have, when the replay knows where it stands: no event may be
  /// missing from what it is fed.
  private var next: Int?

  /// Goes on from `state`, the session's state after some seq (`nil`: before its first event).
  package init(of session: SessionID, from state: AnyCoordinator?) {
    self.session = session
    self.state = state
  }

  /// Starts from the snapshot at `seq` (its state's stored text), or from nothing when
  /// `snapshot` is `nil` (then `seq` is 0).
  package init(of session: SessionID, snapshotAt seq: Int, snapshot: [UInt8]?) throws(HistoryError) {
    self.session = session
    next = seq + 1
    guard let snapshot else { return }
    do {
      state = try WireFormat.decode(AnyCoordinator.self, from: snapshot)
    } catch {
      throw HistoryError.unreadableHistory(session: session, seq: seq, .unreadableSnapshot(error))
    }
    schedule.noteSnapshot(bytes: snapshot.count)
  }

  /// Applies the next stored event, and returns it decoded. An event that is not the next seq
  /// (one is missing before it) is refused (`.stateMissing` at the missing seq).
  @discardableResult
  package mutating func take(_ row: StoredEventRow) throws(HistoryError) -> AnyEvent {
    if let next {
      guard row.seq == next else { throw HistoryError.unreadableHistory(session: session, seq: next, .stateMissing) }
      self.next = next + 1
    }
    let event = try row.decoded()
    do throws(NavigationError) {
      try event.operation.apply(toSession: &state)
    } catch {
      throw HistoryError.unreadableHistory(session: session, seq: row.seq, .eventNoLongerApplies(error))
    }
    schedule.noteEvent(operationBytes: row.op.count)
    return event
  }

  /// Checks that the events taken reach `seq`: a history whose last events are missing has no
  /// state there (`.stateMissing` at the first one missing).
  package func check(reached seq: Int) throws(HistoryError) {
    if let next, next <= seq { throw HistoryError.unreadableHistory(session: session, seq: next, .stateMissing) }
  }

  /// The state after the events taken.
  package func result() throws(HistoryError) -> AnyCoordinator {
    guard let state else { throw HistoryError.unreadableHistory(session: session, seq: 1, .noStartEvent) }
    return state
  }

  /// The state after the events taken as the append rules carry it on, when they are the
  /// session's last: measured once here (a walk of the tree), and with the snapshot schedule
  /// the appends that stored them reached.
  package func running() throws(HistoryError) -> RunningState {
    let tree = try result()
    return RunningState(tree: tree, measure: tree.measure, snapshots: schedule)
  }
}
