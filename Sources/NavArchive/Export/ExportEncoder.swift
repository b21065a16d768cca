import NavCore
@_spi(Internals) import NavHistory

/// An export made from rows an engine reads, whatever the engine: the same rows and the same
/// bytes as `SessionStore.exportEncoded` writes from a store file, for the collector's store on
/// PostgreSQL.
///
/// The engine hands it every stored event in (session, seq) order (sessions ordered by their
/// ids' UTF-8 bytes), only `filter.session`'s when it names one: for the sessions table, each
/// session's summary before its first event (`take(_:)`, whose count the events make:
/// `SessionRowReplay`); for the others, each session announced by `beginSession` when the filter
/// selects by context. The encoder applies `since` and `until` itself.
package struct ExportEncoder {
  /// Bytes past which `nextChunk()` hands out what is written.
  package static let chunkSize = 1 << 16

  private let table: ExportTable
  private let format: ExportFormat
  private let filter: ExportFilter
  private var bytes: [UInt8] = []
  private var replay: ScreenViewReplay?
  private var sessionRows: SessionRowReplay?
  private var previous: (session: SessionID, seq: Int, at: Int64)?
  /// The session whose rows the filter leaves out (`beginSession`), while they come.
  private var leftOut: SessionID?
  /// The rows written so far.
  package private(set) var rows = 0

  /// An encoder of `table` in `format`, its header written.
  package init(_ table: ExportTable, format: ExportFormat, filter: ExportFilter) throws(HistoryError) {
    try ExportEncoding.checkPayloads(table, format: format, filter: filter)
    let table = format.source(of: table)
    self.table = table
    self.format = format
    self.filter = filter
    if let header = ExportEncoding.header(table, format: format) { bytes.append(contentsOf: header.utf8) }
    switch table {
    case .screenViews, .transitions: replay = ScreenViewReplay(table: table, format: format, filter: filter)
    case .sessions: sessionRows = SessionRowReplay(filter: filter)
    case .events: break
    }
  }

  /// Takes the next session's summary, before its first event (the sessions table).
  package mutating func take(_ summary: SessionSummary) throws(HistoryError) {
    guard var rows = sessionRows else { return }
    sessionRows = nil
    defer { sessionRows = rows }
    try rows.begin(summary) { (row: ExportRow) throws(HistoryError) in emit(row) }
  }

  /// Says, before a session's first event, what it ran on (its start's context): a filter on
  /// app version or device (`ExportFilter.selectsByContext`) may leave all its rows out.
  package mutating func beginSession(_ session: SessionID, context: SessionContext?) {
    leftOut = filter.keeps(context) ? nil : session
  }

  /// Takes the next stored event (the other tables), of a session whose journey is `journey`
  /// (which the screen views carry).
  package mutating func take(_ row: StoredEventRow, journey: StoredJourney? = nil) throws(HistoryError) {
    if let session = filter.session, session != row.session { return }
    if leftOut == row.session { return }
    if sessionRows != nil {
      sessionRows?.take(row)
      return
    }
    if var replay {
      self.replay = nil
      defer { self.replay = replay }
      try replay.apply(try row.decoded(), received: row.received, journey: journey) {
        (exported: ExportRow) throws(HistoryError) in
        emit(exported)
      }
      return
    }
    // The event before is the previous row when its seq is one less (`forEachEventsRow`).
    let wentBack = previous.map { $0.session == row.session && $0.seq == row.seq - 1 && row.at < $0.at } ?? false
    previous = (row.session, row.seq, row.at)
    guard filter.keepsEvent(at: row.at, received: row.received) else { return }
    var values = ExportValuesWriter()
    try ExportEncoding.writeEventsRow(
      row, session: row.session, clockWentBack: wentBack, redacting: filter.redaction, into: &values)
    emit(ExportRow(values: values.values, event: format == .jsonl ? try row.decoded() : nil))
  }

  /// What is written, once there is a chunk's worth of it.
  package mutating func nextChunk() -> [UInt8]? {
    guard bytes.count >= Self.chunkSize else { return nil }
    defer { bytes.removeAll(keepingCapacity: true) }
    return bytes
  }

  /// The rest, once every row was taken (empty when there is none).
  package mutating func finish() throws(HistoryError) -> [UInt8] {
    if var replay {
      self.replay = nil
      try replay.finishSession { (exported: ExportRow) throws(HistoryError) in emit(exported) }
    }
    if var rows = sessionRows {
      sessionRows = nil
      try rows.finish { (row: ExportRow) throws(HistoryError) in emit(row) }
    }
    defer { bytes = [] }
    return bytes
  }

  private mutating func emit(_ row: ExportRow) {
    ExportEncoding.append(row, table: table, format: format, to: &bytes)
    rows += 1
  }
}

extension StoredEventRow: EventsRowColumns {
  package func int64(_ column: Int32) -> Int64 {
    switch EventColumn(rawValue: column) {
    case .seq: Int64(seq)
    case .at: at
    case .received: received
    default: 0
    }
  }

  package func isNull(_ column: Int32) -> Bool { EventColumn(rawValue: column) == .cause && cause == nil }

  package func withTextBytes<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    switch EventColumn(rawValue: column) {
    case .sessionID: return try Array(session.rawValue.utf8).withUnsafeBufferPointer(body)
    case .origin: return try Array(origin.utf8).withUnsafeBufferPointer(body)
    case .operation: return try op.withUnsafeBufferPointer(body)
    case .cause: return try (cause ?? []).withUnsafeBufferPointer(body)
    default: return try body(UnsafeBufferPointer(start: nil, count: 0))
    }
  }

  package func withBlobBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
    -> Result
  {
    EventColumn(rawValue: column) == .hash
      ? try hash.withUnsafeBytes(body) : try body(UnsafeRawBufferPointer(start: nil, count: 0))
  }
}
