#if Collector
import Logging
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO

/// A `sessions` row as selected: the engine-neutral record, and its partition month.
struct PostgresSessionRow {
  typealias Columns = (
    String, Int32, Int64, ByteBuffer?, Int64?, Int64?, Int32, String?, Int64?, Int64, Int64, String?, String, Int64,
    String?, String?, Int32, Int64, String?
  )
  static let selectList = """
    id, month, event_count, head_hash, first_at, last_at, depth, restored_from_session, restored_from_seq,
    duration_ms, clock_jumps, context, phase, foreground_ms, launch, launch_reason, dropped_routes, received, journey
    """

  /// The select list with each column qualified by `table` (a join's).
  static func selectList(of table: String) -> String { qualified(selectList, by: table) }

  /// A named session's id, its row's columns (all NULL when it has none) and its tombstone's
  /// time (NULL unless it has no events and one).
  typealias HeldColumns = (
    String, String?, Int32?, Int64?, ByteBuffer?, Int64?, Int64?, Int32?, String?, Int64?, Int64?, Int64?, String?,
    String?, Int64?, String?, String?, Int32?, Int64?, String?, Int64?
  )

  let record: SessionRecord
  let month: Int

  /// The row in `HeldColumns`, if the session has one.
  init?(held columns: HeldColumns) {
    guard let id = columns.1, let month = columns.2, let count = columns.3, let depth = columns.7,
      let duration = columns.10, let jumps = columns.11, let phase = columns.13, let foreground = columns.14,
      let dropped = columns.17, let received = columns.18
    else { return nil }
    self.init(
      (
        id, month, count, columns.4, columns.5, columns.6, depth, columns.8, columns.9, duration, jumps, columns.12,
        phase, foreground, columns.15, columns.16, dropped, received, columns.19
      ))
  }

  init(_ columns: Columns) {
    record = SessionRecord(
      id: columns.0, eventCount: Int(columns.2), headHash: columns.3?.bytes,
      firstAt: columns.4.map(Timestamp.init(millisecondsSince1970:)),
      lastAt: columns.5.map(Timestamp.init(millisecondsSince1970:)), depth: Int(columns.6),
      restoredFromSession: columns.7, restoredFromSeq: columns.8, durationMilliseconds: columns.9,
      clockJumps: Int(columns.10), context: columns.11, phase: columns.12, foregroundMilliseconds: columns.13,
      launch: columns.14, launchReason: columns.15, droppedRoutes: Int(columns.16), received: columns.17,
      journey: columns.18)
    month = Int(columns.1)
  }
}

/// `list`, a select list of plain column names, with each qualified by `table` (a join's).
private func qualified(_ list: String, by table: String) -> String {
  list.split(separator: ",").map { "\(table).\($0.trimmingCharacters(in: .whitespacesAndNewlines))" }
    .joined(separator: ", ")
}

/// An `events` row as selected (`session_id, seq, at, origin, op, cause, hash, received`).
enum PostgresEventRow {
  typealias Columns = (String, Int64, Int64, String, String, String?, ByteBuffer, Int64)
  static let selectList = "session_id, seq, at, origin, op, cause, hash, received"

  /// The select list with each column qualified by `table` (a join's).
  static func selectList(of table: String) -> String { qualified(selectList, by: table) }

  /// An export's row of the tables but sessions: the event's columns, on a session's first
  /// event its journey and the number of the journey's move, and, on a session's first row when
  /// the export selects by context, the session's context (`""` when it has none).
  typealias ExportColumns = (
    String, Int64, Int64, String, String, String?, ByteBuffer, Int64, String?, Int64?, String?
  )

  static func row(_ columns: ExportColumns) throws(HistoryError) -> (
    row: StoredEventRow, journey: StoredJourney?, firstContext: String?
  ) {
    let row = try row((columns.0, columns.1, columns.2, columns.3, columns.4, columns.5, columns.6, columns.7))
    return (row, columns.8.map { StoredJourney(first: $0, moved: columns.9 ?? 0) }, columns.10)
  }

  /// A sessions export's row: the event's columns, then, on a session's first event, its
  /// session's row (`PostgresSessionRow.selectList`; all NULL on the other events).
  typealias SessionsExportColumns = (
    String, Int64, Int64, String, String, String?, ByteBuffer, Int64,
    String?, Int32?, Int64?, ByteBuffer?, Int64?, Int64?, Int32?, String?, Int64?, Int64?, Int64?, String?, String?,
    Int64?, String?, String?, Int32?, Int64?, String?
  )

  static func row(_ columns: SessionsExportColumns) throws(HistoryError) -> (
    row: StoredEventRow, session: PostgresSessionRow?
  ) {
    let row = try row((columns.0, columns.1, columns.2, columns.3, columns.4, columns.5, columns.6, columns.7))
    let session = PostgresSessionRow(
      held: (
        columns.0, columns.8, columns.9, columns.10, columns.11, columns.12, columns.13, columns.14, columns.15,
        columns.16, columns.17, columns.18, columns.19, columns.20, columns.21, columns.22, columns.23, columns.24,
        columns.25, columns.26, nil
      ))
    return (row, session)
  }

  static func row(_ columns: Columns) throws(HistoryError) -> StoredEventRow {
    StoredEventRow(
      session: try SessionRecord.sessionID(columns.0), seq: Int(columns.1), at: columns.2, origin: columns.3,
      op: Array(columns.4.utf8), cause: columns.5.map { Array($0.utf8) }, hash: columns.6.bytes, received: columns.7)
  }
}

/// Bytes already held (an event's chain value), sent as one `bytea` element of an array: each
/// is written straight into the statement's buffer, with no buffer of its own per event.
struct ByteaElement: PostgresNonThrowingEncodable, PostgresArrayEncodable, Sendable {
  let bytes: [UInt8]

  static var psqlType: PostgresDataType { .bytea }
  static var psqlFormat: PostgresFormat { .binary }
  static var psqlArrayType: PostgresDataType { .byteaArray }

  func encode<JSONEncoder: PostgresJSONEncoder>(
    into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
  ) {
    byteBuffer.writeBytes(bytes)
  }
}

/// UTF-8 already held (an event's canonical operation), sent as one `text` element of an
/// array without making a `String` of it first.
struct UTF8TextElement: PostgresNonThrowingEncodable, PostgresArrayEncodable, Sendable {
  let utf8: [UInt8]

  static var psqlType: PostgresDataType { .text }
  static var psqlFormat: PostgresFormat { .binary }
  static var psqlArrayType: PostgresDataType { .textArray }

  func encode<JSONEncoder: PostgresJSONEncoder>(
    into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
  ) {
    byteBuffer.writeBytes(utf8)
  }
}

/// Sessions' rows after an upload, one array per column: new sessions' whole rows for one
/// `INSERT ... SELECT FROM unnest(...)`, or stored sessions' totals for one `UPDATE ... FROM
/// unnest(...)`.
struct SessionColumnsBatch: Sendable {
  /// For new sessions: the partition month, the session each continues (`""`: none) and from
  /// which seq (0), the start's context as canonical JSON (`""`: none), and its launch's
  /// outcome and reason (`""`: none) and dropped routes.
  var months: [Int32] = []
  var links: [String] = []
  var linkSeqs: [Int64] = []
  var contexts: [String] = []
  var launches: [String] = []
  var launchReasons: [String] = []
  var droppedRoutes: [Int32] = []
  /// For new sessions: the first session of the chain of restores each continues.
  var journeys: [String] = []

  var ids: [String] = []
  var counts: [Int64] = []
  var firsts: [Int64] = []
  var lasts: [Int64] = []
  var jumps: [Int64] = []
  var durations: [Int64] = []
  var foregrounds: [Int64] = []
  var hashes: [ByteBuffer] = []
  var depths: [Int32] = []
  var phases: [String] = []

  /// A new session's row: its link and context from its first event (its `start`), its totals
  /// after the upload.
  mutating func addNew(session: String, month: Int, start: AnyEvent, totals: SessionTotals) throws(HistoryError) {
    let columns = try SessionStartColumns(start: start.operation)
    months.append(Int32(month))
    links.append(columns.link?.session.rawValue ?? "")
    linkSeqs.append(Int64(columns.link?.seq ?? 0))
    contexts.append(columns.context ?? "")
    launches.append(columns.launch ?? "")
    launchReasons.append(columns.launchReason ?? "")
    droppedRoutes.append(Int32(clamping: columns.droppedRoutes))
    add(session: session, totals: totals)
  }

  /// A session's totals after the upload.
  mutating func add(session: String, totals: SessionTotals) {
    ids.append(session)
    counts.append(Int64(totals.count))
    firsts.append(totals.firstAt?.millisecondsSince1970 ?? 0)
    lasts.append(totals.lastAt?.millisecondsSince1970 ?? 0)
    jumps.append(Int64(totals.clockJumps))
    durations.append(totals.durationMilliseconds)
    foregrounds.append(totals.foregroundMilliseconds)
    hashes.append(ByteBuffer(bytes: totals.headHash))
    depths.append(Int32(clamping: totals.depth))
    phases.append(totals.phase.rawValue)
  }
}

extension PostgresConnection {
  /// Calls `body` with each stored event of `session` (in partition `month`) from `from` to
  /// `to`, in seq order. The rows are read to the end whatever `body` does, since a row stream
  /// left unread holds the connection; `body`'s first error is thrown once they are.
  func forEachStoredEvent(
    of session: SessionID, app: AppName, month: Int, from: Int = 1, to: Int = Int.max, logger: Logger,
    isolation: isolated (any Actor)? = #isolation, _ body: (StoredEventRow) throws -> Void
  ) async throws {
    let rows = try await query(
      """
      SELECT \(unescaped: PostgresEventRow.selectList) FROM events
        WHERE app = \(app.rawValue) AND session_id = \(session.rawValue) AND month = \(Int32(month))
          AND seq BETWEEN \(Int64(from)) AND \(Int64(to))
        ORDER BY seq
      """, logger: logger)
    try await readToTheEnd(rows.decode(PostgresEventRow.Columns.self)) { columns in
      try body(try PostgresEventRow.row(columns))
    }
  }

  /// Runs a statement whose rows, if any, are not wanted, and reads them to the end: a row
  /// stream left unread holds the connection, and the transaction's `COMMIT` would wait behind
  /// it for good.
  func run(_ query: PostgresQuery, logger: Logger) async throws {
    for try await _ in try await self.query(query, logger: logger) {}
  }
}

/// Calls `body` with every row of `rows`, which are read to the end whatever `body` throws (a
/// row stream left unread holds the connection, and the transaction's `COMMIT` would wait behind
/// it for good); `body`'s first error is thrown once they are.
func readToTheEnd<Rows: AsyncSequence>(
  _ rows: Rows, isolation: isolated (any Actor)? = #isolation, _ body: (Rows.Element) throws -> Void
) async throws {
  var failure: (any Error)?
  for try await row in rows where failure == nil {
    do {
      try body(row)
    } catch {
      failure = error
    }
  }
  if let failure { throw failure }
}
#endif
