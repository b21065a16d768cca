@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavHistory
import NavPersistence

/// Exports: one pass over the events table in (session, seq) order, replaying each session as it
/// goes, so memory holds one session's state, never the table.
extension StoreEngine {
  /// Every row of `table`, in one pass.
  func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, _ emit: (ExportRow) throws(StoreError) -> Void
  ) throws(StoreError) {
    var export = ExportProgress(table, format: format, filter: filter)
    try exportRows(&export, limit: .max, more: { true }, emit)
  }

  /// Emits the rows after where `export` stands, and moves it on: until the table ends
  /// (`finished`), `more` says the page is full (asked after each stored row read, so a
  /// replayed event's rows are never split), or `limit` stored rows have been read.
  func exportRows(
    _ export: inout ExportProgress, limit: Int, more: () -> Bool, _ emit: (ExportRow) throws(StoreError) -> Void
  ) throws(StoreError) {
    let (table, format, filter) = (export.table, export.format, export.filter)
    var emitted = 0
    func counted(_ row: ExportRow) throws(StoreError) {
      try emit(row)
      emitted += 1
    }
    defer { export.rows += emitted }
    switch table {
    case .sessions:
      // Each session's row, with the visits its events replay to: its events are read as the
      // screen views read them, the row with its first.
      var rows = export.sessionRows ?? SessionRowReplay(filter: filter)
      defer { export.sessionRows = rows }
      let ended = try forEachEventsRow(
        filter: ExportFilter(session: filter.session, appVersion: filter.appVersion, deviceModel: filter.deviceModel),
        sessionsAfter: filter.after, after: &export.lastEvent, limit: limit
      ) { statement, session, _ throws(StoreError) in
        let stored = StoredEventRow(statement, session: session)
        if stored.seq == 1, let summary = try sessionSummary(session) {
          try rows.begin(summary, counted)
        }
        rows.take(stored)
        return more()
      }
      if ended { try rows.finish(counted) }
      export.finished = ended
    case .events:
      export.finished = try forEachEventsRow(filter: filter, after: &export.lastEvent, limit: limit) {
        statement, session, clockWentBack throws(StoreError) in
        var row = ExportValuesWriter()
        try StoreError.ruling(
          ExportEncoding.writeEventsRow(
            statement, session: session, clockWentBack: clockWentBack, redacting: filter.redaction,
            into: &row))
        // The JSON Lines form is the wire format: the whole event, not the flat row.
        let event =
          format == .jsonl ? try StoreError.ruling(StoredEventRow(statement, session: session).decoded()) : nil
        try counted(ExportRow(values: row.values, event: event))
        return more()
      }
    case .screenViews, .transitions:
      var replay =
        export.replay ?? ScreenViewReplay(table: table, format: format, filter: filter)
      defer { export.replay = replay }
      // Views begin before `since` and end after it, and before the cursor and after it: the
      // whole history of each session received after it is replayed.
      var journeyRead: (session: SessionID, journey: StoredJourney?)?
      let ended = try forEachEventsRow(
        filter: ExportFilter(session: filter.session, appVersion: filter.appVersion, deviceModel: filter.deviceModel),
        sessionsAfter: filter.after, after: &export.lastEvent,
        limit: limit
      ) { statement, session, _ throws(StoreError) in
        let stored = StoredEventRow(statement, session: session)
        // Read once per session, by its row's key.
        if journeyRead?.session != session { journeyRead = (session, try storedJourney(of: session)) }
        try replay.apply(
          try StoreError.ruling(stored.decoded()), received: stored.received, journey: journeyRead?.journey, counted)
        return more()
      }
      if ended { try replay.finishSession(counted) }
      export.finished = ended
    }
  }
}
