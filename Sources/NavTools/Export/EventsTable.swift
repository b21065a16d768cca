@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

/// The events table of an export, read once from the stored rows: the columns of
/// `ExportTable.events`, in order, for either way an export writes them.
extension StoreEngine {
  /// Calls `body` with each stored event after `position` (from the first when `nil`) in
  /// (session, seq) order that `filter` keeps: the statement on its row (the columns of
  /// `EventColumn`), the row's session id, checked, and whether the event is earlier than the
  /// event before it. `position` follows every row read, kept or not.
  ///
  /// Stops when `body` returns `false` or after `limit` rows have been read (kept or not), so
  /// that a page of an export costs its own length whatever the filter; returns whether every
  /// row was read.
  ///
  /// `since`, `until` and what sessions ran on are checked here, not in SQL, for that bound (there is no index on `at`: SQL
  /// would read the same rows), and so is the filter's received window; only the sessions
  /// received after `sessionsAfter` (the filter's `after` unless given) are read. The event
  /// before is the previous row when its seq is one less:
  /// a row that `since` leaves out is earlier than `since`, so a row kept is never earlier
  /// than it for a reason the row before a kept one would not show.
  @discardableResult
  func forEachEventsRow(
    filter: ExportFilter, sessionsAfter: Int64?? = nil, after position: inout EventsRowPosition?,
    limit: Int = .max, _ body: (SQLiteStatement, SessionID, _ clockWentBack: Bool) throws(StoreError) -> Bool
  ) throws(StoreError) -> Bool {
    let statement = try eventsQuery(
      session: filter.session, receivedAfter: sessionsAfter ?? filter.after, after: position)
    defer { statement.reset() }
    var read = 0
    var kept: (session: SessionID, keeps: Bool)?
    while read < limit {
      guard try step(statement) else { return true }
      read += 1
      let seq = statement.int64(EventColumn.seq.rawValue)
      let at = statement.int64(EventColumn.at.rawValue)
      let wentBack: Bool
      // Byte equality, as SQLite orders ids: two ids equal only as Swift strings are two sessions.
      if let previous = position,
        statement.withTextBytes(EventColumn.sessionID.rawValue, { $0.elementsEqual(previous.storedSession) })
      {
        wentBack = previous.seq == seq - 1 && at < previous.at
        position?.seq = seq
        position?.at = at
      } else {
        let id = try statement.sessionID(EventColumn.sessionID.rawValue)
        position = EventsRowPosition(
          session: id, storedSession: statement.textBytes(EventColumn.sessionID.rawValue), seq: seq, at: at)
        wentBack = false
      }
      guard filter.keepsEvent(at: at, received: statement.int64(EventColumn.received.rawValue)) else { continue }
      guard let session = position?.session else { continue }
      if filter.selectsByContext {
        // Read once per session, by its row's key.
        if kept?.session != session { kept = (session, filter.keeps(try storedContext(of: session))) }
        guard kept?.keeps == true else { continue }
      }
      guard try body(statement, session, wentBack) else { return false }
    }
    return false
  }

  /// The events query of an export, bound: the columns of `EventColumn`, in (session, seq)
  /// order, after `position` when given (a range of the primary key), of the sessions with an
  /// event received after `receivedAfter` when given (found by their rows' index, each read by
  /// key, so a pull costs the sessions it hands out, not the store).
  /// The caller resets the statement when done.
  func eventsQuery(session: SessionID?, receivedAfter: Int64?, after position: EventsRowPosition?)
    throws(StoreError) -> SQLiteStatement
  {
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    if let session {
      conditions.append("session_id = ?")
      values.append(.text(session.rawValue))
      if let position {
        conditions.append("seq > ?")
        values.append(.integer(position.seq))
      }
    } else if let position {
      conditions.append("(session_id, seq) > (?, ?)")
      values += [.text(position.session.rawValue), .integer(position.seq)]
    }
    if let receivedAfter {
      conditions.append("session_id IN (SELECT id FROM sessions WHERE received > ?)")
      values.append(.integer(receivedAfter))
    }
    let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let statement = try prepare("SELECT \(EventColumn.selectList) FROM events\(filter) ORDER BY session_id, seq")
    try bind(statement, values)
    return statement
  }
}
