import NavCore

/// Exports: one pass over the events table in (session, seq) order, replaying each session as it
/// goes, so memory holds one session's state, never the table.
extension StoreEngine {
  func export(_ table: ExportTable, format: ExportFormat, filter: ExportFilter, _ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    switch table {
    case .sessions:
      try forEachSessionSummary { summary throws(StoreError) in
        if let session = filter.session, session != summary.id { return }
        if let since = filter.since, let last = summary.lastAt, last < since { return }
        var span = ExportValue.null
        if let first = summary.firstAt, let last = summary.lastAt {
          span = milliseconds(from: first, to: last).map(ExportValue.integer) ?? .null
        }
        try emit(
          ExportRow(values: [
            .text(summary.id.rawValue), .integer(Int64(summary.eventCount)), summary.firstAt.map(ExportValue.time) ?? .null,
            summary.lastAt.map(ExportValue.time) ?? .null, span,
            .integer(Int64(summary.depth)),
            summary.restoredFrom.map { .text($0.session.rawValue) } ?? .null,
            summary.restoredFrom.map { .integer(Int64($0.seq)) } ?? .null,
          ]))
      }
    case .events:
      try forEachEventsRow(filter: filter) { statement, session throws(StoreError) in
        var row = ExportValuesWriter()
        try Self.writeEventsRow(statement, session: session, omittingPayloads: filter.omitsPayloads, into: &row)
        // The JSON Lines form is the wire format: the whole event, not the flat row.
        let event = format == .jsonl ? try StoredEventRow(statement, session: session).decoded() : nil
        try emit(ExportRow(values: row.values, event: event))
      }
    case .screenViews, .transitions:
      var replay = ScreenViewReplay(table: table, since: filter.since)
      // Views begin before `since` and end after it: the whole history is replayed.
      try forEachEventsRow(filter: ExportFilter(session: filter.session)) { statement, session throws(StoreError) in
        try replay.apply(try StoredEventRow(statement, session: session).decoded(), emit)
      }
      try replay.finishSession(emit)
    }
  }

  /// The events query of an export, bound: columns session_id, seq, at, origin, op, cause, hash.
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
      "SELECT session_id, seq, at, origin, op, cause, hash FROM events\(whereClause) ORDER BY session_id, seq")
    try bind(statement, values)
    return statement
  }
}

/// Follows the visible screen through a stream of events, session after session, and emits a
/// screen view when a screen stops being visible (and at a session's end) or a transition when
/// the visible screen changes.
private struct ScreenViewReplay {
  struct OpenView {
    var screen: VisibleScreen
    var enteredAt: Timestamp
  }

  let table: ExportTable
  let since: Timestamp?
  var session: SessionID?
  var state: AnyCoordinator?
  var open: OpenView?
  var lastAt: Timestamp?

  init(table: ExportTable, since: Timestamp?) {
    self.table = table
    self.since = since
  }

  mutating func apply(_ event: AnyEvent, _ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    if event.session != session {
      try finishSession(emit)
      session = event.session
      state = nil
    }
    do {
      state = try event.operation.apply(to: state)
    } catch {
      throw StoreError.unreadableHistory(session: event.session, seq: event.seq ?? 0, reason: "the event no longer applies: \(error)")
    }
    lastAt = event.at
    guard let visible = state?.visibleScreen else { return }
    if let open, open.screen.name == visible.name, open.screen.coordinator == visible.coordinator,
      open.screen.index == visible.index
    {
      return
    }
    if table == .transitions, include(event.at) {
      try emit(
        ExportRow(values: [
          .text(event.session.rawValue), open.map { .text($0.screen.name) } ?? .null, .text(visible.name),
          .text(event.operation.name), .time(event.at), .text(event.origin.rawValue),
        ]))
    }
    try close(at: event.at, emit)
    open = OpenView(screen: visible, enteredAt: event.at)
  }

  /// Ends the session in progress: its visible screen is still visible, up to its last event.
  mutating func finishSession(_ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    try close(at: nil, emit)
    open = nil
  }

  private func close(at exit: Timestamp?, _ emit: (ExportRow) throws(StoreError) -> Void) throws(StoreError) {
    guard table == .screenViews, let open, let session, include(open.enteredAt) else { return }
    let end = exit ?? lastAt ?? open.enteredAt
    try emit(
      ExportRow(values: [
        .text(session.rawValue), .text(open.screen.name), .text(open.screen.path), .time(open.enteredAt),
        exit.map(ExportValue.time) ?? .null, milliseconds(from: open.enteredAt, to: end).map(ExportValue.integer) ?? .null,
      ]))
  }

  private func include(_ time: Timestamp) -> Bool {
    since.map { time >= $0 } ?? true
  }
}

/// The milliseconds between two times, or `nil` when a hand-edited store makes it overflow.
private func milliseconds(from start: Timestamp, to end: Timestamp) -> Int64? {
  let (difference, overflow) = end.millisecondsSince1970.subtractingReportingOverflow(start.millisecondsSince1970)
  return overflow ? nil : difference
}
