import NavCore

/// The launches and session endings of schema 6 (`migrations/0006_launches.sql`).
extension StoreEngine {
  /// What kind of launch a row records.
  enum LaunchKind: String {
    case whole, shallow, fresh
  }

  /// How many launches in a row, counting back from the newest, restored and were never
  /// confirmed (at most `limit`).
  func unsettledLaunchesInARow(limit: Int) throws(StoreError) -> Int {
    let statement = try prepare("SELECT confirmed_at IS NULL FROM launches ORDER BY id DESC LIMIT ?")
    defer { statement.reset() }
    try bind(statement, [.integer(Int64(limit))])
    var count = 0
    while try step(statement), statement.int(0) == 1 { count += 1 }
    return count
  }

  /// Records a launch's decision; a fresh start is confirmed at once (it restored nothing that
  /// could fail). Returns the row's id.
  func insertLaunch(_ kind: LaunchKind, link: SessionLink?, at time: Timestamp) throws(StoreError) -> Int64 {
    let millis = time.millisecondsSince1970
    try execute(
      try prepare("INSERT INTO launches (decided_at, kind, session_id, seq, confirmed_at) VALUES (?, ?, ?, ?, ?)"),
      [
        .integer(millis), .text(kind.rawValue), link.map { .text($0.session.rawValue) } ?? .null,
        link.map { .integer(Int64($0.seq)) } ?? .null, kind == .fresh ? .integer(millis) : .null,
      ])
    return connection.lastInsertedRowID
  }

  /// Marks a launch's restore as settled; a launch already confirmed keeps its first time.
  func confirmLaunch(_ id: Int64, at time: Timestamp) throws(StoreError) {
    try execute(
      try prepare("UPDATE launches SET confirmed_at = ? WHERE id = ? AND confirmed_at IS NULL"),
      [.integer(time.millisecondsSince1970), .integer(id)])
  }

  /// When and why `session` ended, if it did: its `end` event (its reason empty when it gave
  /// none), or, in a store whose sessions were ended before endings went into the log, its row
  /// in `session_endings`.
  func ending(of session: SessionSummary) throws(StoreError) -> (at: Timestamp, reason: String)? {
    if session.phase == .ended, let row = try storedEventRow(session.id, seq: session.eventCount) {
      let last = try StoreError.ruling(row.decoded())
      if case .end(let reason) = last.operation.kind { return (last.at, reason ?? "") }
    }
    return try endingOutsideTheLog(of: session.id)
  }

  /// The ending a store kept in `session_endings` before endings went into the log.
  private func endingOutsideTheLog(of session: SessionID) throws(StoreError) -> (at: Timestamp, reason: String)? {
    let statement = try prepare("SELECT ended_at, reason FROM session_endings WHERE session_id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement) else { return nil }
    return (Timestamp(millisecondsSince1970: statement.int64(0)), statement.text(1))
  }

  /// Ends `session` with an `end` event at `time`; a session that has ended already is left
  /// as it is (its first ending stands).
  func endSession(_ session: SessionID, reason: String, at time: Timestamp) throws(StoreError) {
    guard let row = try sessionRow(session), row.count > 0 else { throw StoreError.unknownSession(session) }
    guard row.phase != .ended, try endingOutsideTheLog(of: session) == nil else { return }
    let end: AnyOperation = LifecycleEvent.end(reason: reason).operation()
    _ = try append(AnyEvent(session: session, at: time, origin: .app, operation: end))
  }
}
