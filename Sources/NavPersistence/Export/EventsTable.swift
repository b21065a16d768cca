import NavCore

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
        let id = try SessionRecord.sessionID(statement.text(EventColumn.sessionID.rawValue))
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

  /// Writes the events columns of the statement's row, or of a copy of it (with `operation` and `cause` empty when
  /// omitting payloads): the stored event's fields, and the
  /// operation's name, screen and path as the codec reads them from the stored operation
  /// (its headline: the rest of it is checked as JSON, and read in full by the JSON Lines
  /// export and by `verify`).
  static func writeEventsRow(
    _ statement: some EventsRowColumns, session: SessionID, clockWentBack: Bool, omittingPayloads: Bool,
    into row: inout some ExportRowWriter
  ) throws(StoreError) {
    let seq = statement.int64(EventColumn.seq.rawValue)
    let read = statement.withTextBytes(EventColumn.operation.rawValue) { bytes in
      Result { () throws(WireFormatError) in
        let headline = try OperationHeadline(storedOperation: bytes)
        return (headline, try headline.pathText())
      }
    }
    let (operation, path): (OperationHeadline, String)
    do {
      (operation, path) = try read.get()
    } catch {
      throw .unreadableHistory(session: session, seq: Int(seq), .unreadableEvent(error))
    }
    row.text(session.rawValue)
    row.integer(seq)
    row.time(Timestamp(millisecondsSince1970: statement.int64(EventColumn.at.rawValue)))
    statement.withTextBytes(EventColumn.origin.rawValue) { row.storedText($0) }
    row.text(operation.name)
    if let screen = operation.screenName { row.text(screen) } else { row.null() }
    row.text(path)
    if omittingPayloads {
      row.null()  // operation
      row.null()  // cause
    } else {
      statement.withTextBytes(EventColumn.operation.rawValue) { row.storedText($0) }
      if statement.isNull(EventColumn.cause.rawValue) {
        row.null()
      } else {
        statement.withTextBytes(EventColumn.cause.rawValue) { row.storedText($0) }
      }
    }
    statement.withBlobBytes(EventColumn.hash.rawValue) { row.hashHex($0) }
    row.boolean(clockWentBack)
  }
}
