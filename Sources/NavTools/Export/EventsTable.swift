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
  /// `since` is checked here, not in SQL, for that bound (there is no index on `at`: SQL
  /// would read the same rows). The event before is the previous row when its seq is one less:
  /// a row that `since` leaves out is earlier than `since`, so a row kept is never earlier
  /// than it for a reason the row before a kept one would not show.
  @discardableResult
  func forEachEventsRow(
    filter: ExportFilter, after position: inout EventsRowPosition?, limit: Int = .max,
    _ body: (SQLiteStatement, SessionID, _ clockWentBack: Bool) throws(StoreError) -> Bool
  ) throws(StoreError) -> Bool {
    let statement = try eventsQuery(session: filter.session, after: position)
    defer { statement.reset() }
    let since = filter.since?.millisecondsSince1970
    var read = 0
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
      if let since, at < since { continue }
      guard let session = position?.session else { continue }
      guard try body(statement, session, wentBack) else { return false }
    }
    return false
  }

  /// The events query of an export, bound: the columns of `EventColumn`, in (session, seq)
  /// order, after `position` when given (a range of the primary key).
  /// The caller resets the statement when done.
  func eventsQuery(session: SessionID?, after position: EventsRowPosition?) throws(StoreError) -> SQLiteStatement {
    let select = "SELECT \(EventColumn.selectList) FROM events"
    let statement: SQLiteStatement
    switch (session, position) {
    case (nil, nil):
      statement = try prepare("\(select) ORDER BY session_id, seq")
    case (nil, let position?):
      statement = try prepare("\(select) WHERE (session_id, seq) > (?, ?) ORDER BY session_id, seq")
      try bind(statement, [.text(position.session.rawValue), .integer(position.seq)])
    case (let session?, nil):
      statement = try prepare("\(select) WHERE session_id = ? ORDER BY seq")
      try bind(statement, [.text(session.rawValue)])
    case (let session?, let position?):
      statement = try prepare("\(select) WHERE session_id = ? AND seq > ? ORDER BY seq")
      try bind(statement, [.text(session.rawValue), .integer(position.seq)])
    }
    return statement
  }
}
