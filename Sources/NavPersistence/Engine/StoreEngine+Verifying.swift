import NavCore

extension StoreEngine {
  /// Checks `sessions` (all of them, in id order, when `nil`), handing `each` every session's
  /// result as it is found. Memory holds one session's snapshots at a time. A session named
  /// that the store does not hold is refused before any is checked.
  package func verify(_ sessions: [SessionID]?, each: (VerificationResult) throws(StoreError) -> Void)
    throws(StoreError)
  {
    func check(_ id: SessionID) throws(StoreError) { try each(try verify(id)) }
    if let sessions {
      for session in sessions where try !sessionExists(session) {
        throw StoreError.unknownSession(session)
      }
      for id in sessions { try check(id) }
    } else {
      try forEachSessionID(check)
    }
  }

  /// Checks one session's stored history and row as `HistoryAudit` says.
  func verify(_ session: SessionID) throws(StoreError) -> VerificationResult {
    var audit = HistoryAudit(of: session)
    try feed(&audit)
    return audit.result(row: audit.failure == nil ? try sessionRecord(session) : nil)
  }

  /// `verify` within `budget`: `nil` when it is spent before the verdict, and the budget as it
  /// is left.
  func verify(_ session: SessionID, within budget: WorkBudget) throws(StoreError) -> (
    result: VerificationResult?, budget: WorkBudget
  ) {
    var audit = HistoryAudit(of: session, budget: budget)
    try feed(&audit)
    let row = audit.failure == nil && !audit.ranOut ? try sessionRecord(session) : nil
    return (audit.budgetedResult(row: row), audit.budget ?? budget)
  }

  /// Hands `audit` the session's events a page at a time, each with the snapshot at its seq,
  /// until it wants no more; then the first snapshot at a seq with no event. Memory holds a
  /// page, whatever the session's length.
  private func feed(_ audit: inout HistoryAudit) throws(StoreError) {
    let events = try prepare(
      "SELECT \(EventColumn.selectList) FROM events WHERE session_id = ? AND seq >= ? ORDER BY seq LIMIT ?")
    defer { events.reset() }
    let snapshots = try prepare("SELECT seq, state FROM snapshots WHERE session_id = ? AND seq BETWEEN ? AND ?")
    defer { snapshots.reset() }
    let id = audit.session.rawValue
    var from = 1
    while audit.wantsMore {
      events.reset()
      try bind(events, [.text(id), .int(from), .int(HistoryAudit.pageSize)])
      var rows: [StoredEventRow] = []
      while try step(events) { rows.append(StoredEventRow(events, session: audit.session)) }
      guard let last = rows.last else { break }
      snapshots.reset()
      try bind(snapshots, [.text(id), .int(rows[0].seq), .int(last.seq)])
      var stored: [Int: [UInt8]] = [:]
      while try step(snapshots) { stored[snapshots.int(0)] = snapshots.textBytes(1) }
      for row in rows where !audit.take(row, snapshot: stored.removeValue(forKey: row.seq)) { break }
      if rows.count < HistoryAudit.pageSize { break }
      from = last.seq + 1
    }
    guard audit.wantsMore else { return }
    let orphan = try prepare(
      """
      SELECT min(seq) FROM snapshots AS s WHERE session_id = ?1
        AND NOT EXISTS (SELECT 1 FROM events AS e WHERE e.session_id = ?1 AND e.seq = s.seq)
      """)
    defer { orphan.reset() }
    try bind(orphan, [.text(id)])
    if try step(orphan), !orphan.isNull(0) { audit.noteOrphanSnapshot(at: orphan.int(0)) }
  }
}
