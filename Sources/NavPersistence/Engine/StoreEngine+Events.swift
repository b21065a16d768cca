@_spi(Internals) import NavCore

extension StoreEngine {
  /// The event stored at `seq`, or `nil`.
  func storedEventRow(_ session: SessionID, seq: Int) throws(StoreError) -> StoredEventRow? {
    var found: StoredEventRow?
    try forEachEvent(of: session, from: seq, to: seq) { found = $0 }
    return found
  }

  /// Calls `body` with the session's events from seq `from` to `to`, in seq order.
  func forEachEvent(
    of session: SessionID, from: Int, to: Int, _ body: (StoredEventRow) throws(StoreError) -> Void
  ) throws(StoreError) {
    try scanEvents(of: session, from: from, to: to) { row throws(StoreError) in
      try body(row)
      return true
    }
  }

  /// `forEachEvent`, stopping once `body` returns `false`.
  func scanEvents(
    of session: SessionID, from: Int, to: Int, _ body: (StoredEventRow) throws(StoreError) -> Bool
  ) throws(StoreError) {
    let statement = try prepare(
      "SELECT \(EventColumn.selectList) FROM events WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue), .int(from), .int(to)])
    while try step(statement) {
      guard try body(StoredEventRow(statement, session: session)) else { return }
    }
  }

  /// The state after event `seq`: the nearest snapshot at or before it, then the events after.
  func rehydrate(_ session: SessionID, at seq: Int) throws(StoreError) -> AnyCoordinator {
    let rehydration = try rehydration(of: session, at: seq)
    return try StoreError.ruling(rehydration.result())
  }

  /// The running state after the session's last event, `seq`, as the append rules go on from.
  func runningState(of session: SessionID, lastSeq seq: Int) throws(StoreError) -> RunningState {
    let rehydration = try rehydration(of: session, at: seq)
    return try StoreError.ruling(rehydration.running())
  }

  /// The replay up to event `seq`: the nearest snapshot at or before it, then the events after,
  /// none missing.
  private func rehydration(of session: SessionID, at seq: Int) throws(StoreError) -> Rehydration {
    var rehydration: Rehydration
    var replayedUpTo = 0
    let snapshot = try prepare(
      "SELECT seq, state FROM snapshots WHERE session_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1")
    defer { snapshot.reset() }
    try bind(snapshot, [.text(session.rawValue), .int(seq)])
    if try step(snapshot) {
      replayedUpTo = snapshot.int(0)
      rehydration = try StoreError.ruling(
        Rehydration(of: session, snapshotAt: replayedUpTo, snapshot: snapshot.textBytes(1)))
    } else {
      rehydration = try StoreError.ruling(Rehydration(of: session, snapshotAt: 0, snapshot: nil))
    }
    try forEachEvent(of: session, from: replayedUpTo + 1, to: seq) { row throws(StoreError) in
      try StoreError.ruling(rehydration.take(row))
    }
    try StoreError.ruling(rehydration.check(reached: seq))
    return rehydration
  }
}
