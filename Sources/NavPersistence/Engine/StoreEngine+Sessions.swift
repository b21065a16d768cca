import NavCore
@_spi(Internals) import NavHistory

extension StoreEngine {
  /// The totals of the session's row (its last seq, head hash, times, clock and depth), or `nil`
  /// when it has no row.
  func sessionRow(_ session: SessionID) throws(StoreError) -> SessionRow? {
    let statement = try prepare("SELECT \(SessionTotalsColumn.selectList) FROM sessions WHERE id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement) else { return nil }
    return SessionTotals(
      count: statement.int(SessionTotalsColumn.eventCount),
      headHash: statement.isNull(SessionTotalsColumn.headHash)
        ? HashChain.genesis : statement.blob(SessionTotalsColumn.headHash),
      phase: SessionPhase(rawValue: statement.text(SessionTotalsColumn.phase)) ?? .foreground,
      firstAt: statement.optionalInt64(SessionTotalsColumn.firstAt).map(Timestamp.init(millisecondsSince1970:)),
      lastAt: statement.optionalInt64(SessionTotalsColumn.lastAt).map(Timestamp.init(millisecondsSince1970:)),
      clockJumps: statement.int(SessionTotalsColumn.clockJumps),
      durationMilliseconds: statement.int64(SessionTotalsColumn.durationMilliseconds),
      foregroundMilliseconds: statement.int64(SessionTotalsColumn.foregroundMilliseconds),
      depth: statement.int(SessionTotalsColumn.depth))
  }

  /// What the session ran on, as its start's context gave it (`nil`: none, or no row).
  package func storedContext(of session: SessionID) throws(StoreError) -> SessionContext? {
    let statement = try prepare("SELECT context FROM sessions WHERE id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    return try step(statement) && !statement.isNull(0) ? SessionRecord.context(statement.text(0)) : nil
  }

  /// The session's whole row, or `nil` when it has none.
  func sessionRecord(_ session: SessionID) throws(StoreError) -> SessionRecord? {
    let statement = try prepare("SELECT \(SessionColumn.selectList) FROM sessions WHERE id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement) else { return nil }
    return SessionRecord(statement)
  }

  /// The session's last seq; throws `.unknownSession` when there is no such session.
  package func eventCount(of session: SessionID) throws(StoreError) -> Int {
    guard let row = try sessionRow(session), row.count > 0 else { throw StoreError.unknownSession(session) }
    return row.count
  }

  /// Calls `body` with every session id in the store, in order: those with a session row and
  /// those with events, so a session whose row was emptied or deleted behind the store's back
  /// is still checked. SQLite merges the three tables' key orders, so nothing is gathered.
  func forEachSessionID(_ body: (SessionID) throws(StoreError) -> Void) throws(StoreError) {
    let statement = try prepare(
      "SELECT id FROM sessions UNION SELECT session_id FROM events UNION SELECT session_id FROM snapshots ORDER BY 1")
    defer { statement.reset() }
    while try step(statement) {
      try body(try statement.sessionID(0))
    }
  }

  /// Whether a session has a row, events or snapshots (the ids `forEachSessionID` lists).
  func sessionExists(_ session: SessionID) throws(StoreError) -> Bool {
    let statement = try prepare(
      """
      SELECT EXISTS (SELECT 1 FROM sessions WHERE id = ?1) OR EXISTS (SELECT 1 FROM events WHERE session_id = ?1)
        OR EXISTS (SELECT 1 FROM snapshots WHERE session_id = ?1)
      """)
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    return try step(statement) && statement.int(0) == 1
  }

  /// Calls `body` with every session that has events, ordered by id, one row at a time.
  package func forEachSessionSummary(
    order: SessionQuery.Order = .id, _ body: (SessionSummary) throws(StoreError) -> Void
  ) throws(StoreError) {
    try forEachSessionSummary(order: order) { summary throws(StoreError) in
      try body(summary)
      return true
    }
  }

  /// Each session's summary in `order`, until `body` returns `false`. Latest activity first
  /// reads the `sessions_by_last_at` index, as `latestSession` does; by id, the primary key.
  /// Either starts after `after` (a page's last session) when given, so that a page costs its
  /// own length.
  package func forEachSessionSummary(
    order: SessionQuery.Order, after: (lastAt: Timestamp, id: SessionID)? = nil,
    while body: (SessionSummary) throws(StoreError) -> Bool
  ) throws(StoreError) {
    let statement: SQLiteStatement
    switch (order, after) {
    case (.id, nil):
      statement = try prepare("SELECT \(SessionColumn.selectList) FROM sessions WHERE event_count > 0 ORDER BY id")
    case (.id, let after?):
      statement = try prepare(
        "SELECT \(SessionColumn.selectList) FROM sessions WHERE event_count > 0 AND id > ? ORDER BY id")
      try bind(statement, [.text(after.id.rawValue)])
    case (.lastActivity, nil):
      statement = try prepare(
        "SELECT \(SessionColumn.selectList) FROM sessions WHERE event_count > 0 ORDER BY last_at DESC, id DESC")
    case (.lastActivity, let after?):
      statement = try prepare(
        """
        SELECT \(SessionColumn.selectList) FROM sessions
        WHERE event_count > 0 AND (last_at < ?1 OR (last_at = ?1 AND id < ?2)) ORDER BY last_at DESC, id DESC
        """)
      try bind(statement, [.integer(after.lastAt.millisecondsSince1970), .text(after.id.rawValue)])
    }
    defer { statement.reset() }
    while try step(statement) {
      guard try body(try StoreError.ruling(SessionRecord(statement).summary())) else { return }
    }
  }

  /// The session's summary, or `nil` when it has no events.
  package func sessionSummary(_ session: SessionID) throws(StoreError) -> SessionSummary? {
    guard let record = try sessionRecord(session), record.eventCount > 0 else { return nil }
    return try StoreError.ruling(record.summary())
  }

  /// The session whose last event is the newest (ties go to the greatest id), through the
  /// `last_at` index: one step, however many sessions the store holds.
  func latestSessionSummary() throws(StoreError) -> SessionSummary? {
    let statement = try prepare(
      "SELECT \(SessionColumn.selectList) FROM sessions WHERE event_count > 0 ORDER BY last_at DESC, id DESC LIMIT 1")
    defer { statement.reset() }
    guard try step(statement) else { return nil }
    return try StoreError.ruling(SessionRecord(statement).summary())
  }
}
