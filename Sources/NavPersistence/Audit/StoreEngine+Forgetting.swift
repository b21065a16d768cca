import NavCore

/// The tombstones of schema 4 (`migrations/0004_tombstones.sql`).
extension StoreEngine {
  /// When the session was forgotten, if it was.
  func forgottenAt(_ session: SessionID) throws(StoreError) -> Timestamp? {
    try tombstone(of: session)?.forgottenAt
  }

  /// The session's tombstone, if it was forgotten.
  package func tombstone(of session: SessionID) throws(StoreError) -> Tombstone? {
    let statement = try prepare("SELECT forgotten_at, last_seq, head_hash FROM tombstones WHERE session_id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement) else { return nil }
    return Tombstone(
      session: session, forgottenAt: Timestamp(millisecondsSince1970: statement.int64(0)), lastSeq: statement.int(1),
      headHash: statement.blob(2))
  }

  /// Deletes a session's snapshots, events and row, after writing its tombstone (which the
  /// events' append-only trigger requires): in the caller's write transaction. The deleted
  /// content is overwritten in the file's pages (`secure_delete`), not merely unlinked.
  func forget(_ session: SessionID, at time: Timestamp) throws(StoreError) -> Tombstone {
    try run("PRAGMA secure_delete = ON")
    if let forgotten = try forgottenAt(session) { throw StoreError.forgottenSession(session, at: forgotten) }
    guard let row = try sessionRow(session), row.count > 0 else { throw StoreError.unknownSession(session) }
    let tombstone = Tombstone(session: session, forgottenAt: time, lastSeq: row.count, headHash: row.headHash)
    try execute(
      try prepare("INSERT INTO tombstones (session_id, forgotten_at, last_seq, head_hash) VALUES (?, ?, ?, ?)"),
      [.text(session.rawValue), .integer(time.millisecondsSince1970), .integer(Int64(row.count)), .blob(row.headHash)])
    for sql in [
      // The counter keeps the session's number, so that none is handed out again once the
      // session's row (which held it) is gone.
      "UPDATE receipt_counter SET last = max(last, (SELECT received FROM sessions WHERE id = ?1))",
      "DELETE FROM snapshots WHERE session_id = ?", "DELETE FROM events WHERE session_id = ?",
      "DELETE FROM upload_progress WHERE session_id = ?", "DELETE FROM sessions WHERE id = ?",
    ] {
      try execute(try prepare(sql), [.text(session.rawValue)])
    }
    dropCachedHead(of: session)
    return tombstone
  }

  /// The sessions whose last event is before `cutoff`, in id order.
  func sessions(lastBefore cutoff: Timestamp) throws(StoreError) -> [SessionID] {
    let statement = try prepare("SELECT id FROM sessions WHERE event_count > 0 AND last_at < ? ORDER BY id")
    defer { statement.reset() }
    try bind(statement, [.integer(cutoff.millisecondsSince1970)])
    var sessions: [SessionID] = []
    while try step(statement) { sessions.append(try statement.sessionID(0)) }
    return sessions
  }

  /// Every tombstone, in session id order.
  func tombstones() throws(StoreError) -> [Tombstone] {
    let statement = try prepare(
      "SELECT session_id, forgotten_at, last_seq, head_hash FROM tombstones ORDER BY session_id")
    defer { statement.reset() }
    var tombstones: [Tombstone] = []
    while try step(statement) {
      tombstones.append(
        Tombstone(
          session: try statement.sessionID(0),
          forgottenAt: Timestamp(millisecondsSince1970: statement.int64(1)),
          lastSeq: statement.int(2), headHash: statement.blob(3)))
    }
    return tombstones
  }
}
