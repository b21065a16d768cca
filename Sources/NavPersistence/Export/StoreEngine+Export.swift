import NavCore

/// Exports: one pass over the events table in (session, seq) order, replaying each session as it
/// goes, so memory holds one session's state, never the table.
extension StoreEngine {
  func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, _ emit: (ExportRow) throws(StoreError) -> Void
  ) throws(StoreError) {
    switch table {
    case .sessions:
      try forEachSessionSummary { summary throws(StoreError) in
        if let session = filter.session, session != summary.id { return }
        if let since = filter.since, let last = summary.lastAt, last < since { return }
        try emit(ExportRow(values: Self.sessionsRow(summary, omittingPayloads: filter.omitsPayloads)))
      }
    case .events:
      try forEachEventsRow(filter: filter) { statement, session, clockWentBack throws(StoreError) in
        var row = ExportValuesWriter()
        try Self.writeEventsRow(
          statement, session: session, clockWentBack: clockWentBack, omittingPayloads: filter.omitsPayloads, into: &row)
        // The JSON Lines form is the wire format: the whole event, not the flat row.
        let event = format == .jsonl ? try StoredEventRow(statement, session: session).decoded() : nil
        try emit(ExportRow(values: row.values, event: event))
      }
    case .screenViews, .transitions:
      var replay = ScreenViewReplay(table: table, since: filter.since, omitsPayloads: filter.omitsPayloads)
      // Views begin before `since` and end after it: the whole history is replayed.
      try forEachEventsRow(filter: ExportFilter(session: filter.session)) { statement, session, _ throws(StoreError) in
        try replay.apply(try StoredEventRow(statement, session: session).decoded(), emit)
      }
      try replay.finishSession(emit)
    }
  }

  /// The events query of an export, bound: the columns of `EventColumn`.
  /// The caller resets the statement when done.
  func eventsQuery(session: SessionID?, since: Timestamp?) throws(StoreError) -> SQLiteStatement {
    var conditions: [String] = []
    var values: [SQLiteValue] = []
    if let session {
      conditions.append("session_id = ?")
      values.append(.text(session.rawValue))
    }
    if let since {
      conditions.append("at >= ?")
      values.append(.integer(since.millisecondsSince1970))
    }
    let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    let statement = try prepare(
      "SELECT \(EventColumn.selectList) FROM events\(whereClause) ORDER BY session_id, seq")
    try bind(statement, values)
    return statement
  }

  /// A `sessions` row. Leaving out payloads leaves out the user id and the app's own context
  /// keys too: what could tell who the user is.
  static func sessionsRow(_ summary: SessionSummary, omittingPayloads: Bool) -> [ExportValue] {
    let context = summary.context
    func text(_ value: String?) -> ExportValue { value.map(ExportValue.text) ?? .null }
    let appContext: ExportValue =
      omittingPayloads || (context?.app.isEmpty ?? true)
      ? .null : .text(JSONValue.object(context?.app ?? [:]).canonicalString)
    return [
      .text(summary.id.rawValue), .integer(Int64(summary.eventCount)),
      summary.firstAt.map(ExportValue.time) ?? .null,
      summary.lastAt.map(ExportValue.time) ?? .null, .integer(summary.durationMilliseconds),
      .integer(Int64(summary.depth)),
      summary.restoredFrom.map { .text($0.session.rawValue) } ?? .null,
      summary.restoredFrom.map { .integer(Int64($0.seq)) } ?? .null,
      .integer(Int64(summary.clockJumps)),
      text(context?.appVersion), text(context?.appBuild), text(context?.osName), text(context?.osVersion),
      text(context?.deviceModel), text(context?.locale), text(context?.timeZone),
      omittingPayloads ? .null : text(context?.userID), appContext,
      .integer(summary.foregroundMilliseconds), .text(summary.phase.rawValue),
    ]
  }
}
