import NavCore

/// The events table of an export, read once from the stored rows: the columns of
/// `ExportTable.events`, in order, for either way an export writes them.
extension StoreEngine {
  /// Calls `body` with each stored event in (session, seq) order: the statement on its row
  /// (columns session_id, seq, at, origin, op, cause, hash), the row's session id, checked, and
  /// whether the event is earlier than the event before it.
  ///
  /// The event before is the previous row when its seq is one less: a filter that left it out
  /// (`since`) left it out for being earlier than `since`, so no later row is earlier than it.
  func forEachEventsRow(
    filter: ExportFilter, _ body: (SQLiteStatement, SessionID, _ clockWentBack: Bool) throws(StoreError) -> Void
  ) throws(StoreError) {
    let statement = try eventsQuery(session: filter.session, since: filter.since)
    defer { statement.reset() }
    var session: (id: SessionID, stored: [UInt8])?
    var previous: (seq: Int64, at: Int64)?
    while try step(statement) {
      let seq = statement.int64(EventColumn.seq.rawValue)
      let at = statement.int64(EventColumn.at.rawValue)
      // Byte equality, as SQLite orders ids: two ids equal only as Swift strings are two sessions.
      if let current = session,
        statement.withTextBytes(EventColumn.sessionID.rawValue, { $0.elementsEqual(current.stored) })
      {
        let wentBack = previous.map { $0.seq == seq - 1 && at < $0.at } ?? false
        previous = (seq, at)
        try body(statement, current.id, wentBack)
        continue
      }
      let id = try SessionRecord.sessionID(statement.text(EventColumn.sessionID.rawValue))
      session = (id, statement.textBytes(EventColumn.sessionID.rawValue))
      previous = (seq, at)
      try body(statement, id, false)
    }
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
