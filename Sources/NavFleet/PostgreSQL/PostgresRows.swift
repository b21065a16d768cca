import Logging
import NavCore
import NavPersistence
import PostgresNIO

/// A `sessions` row as selected: the engine-neutral record, and its partition month.
struct SessionRowColumns {
  typealias Columns = (
    String, Int32, Int64, ByteBuffer?, Int64?, Int64?, Int32, String?, Int64?, Int64, Int64, String?, String, Int64
  )
  static let selectList = """
    id, month, event_count, head_hash, first_at, last_at, depth, restored_from_session, restored_from_seq,
    duration_ms, clock_jumps, context, phase, foreground_ms
    """

  let record: SessionRecord
  let month: Int

  init(_ columns: Columns) {
    record = SessionRecord(
      id: columns.0, eventCount: Int(columns.2), headHash: columns.3?.bytes,
      firstAt: columns.4.map(Timestamp.init(millisecondsSince1970:)),
      lastAt: columns.5.map(Timestamp.init(millisecondsSince1970:)), depth: Int(columns.6),
      restoredFromSession: columns.7, restoredFromSeq: columns.8, durationMilliseconds: columns.9,
      clockJumps: Int(columns.10), context: columns.11, phase: columns.12, foregroundMilliseconds: columns.13)
    month = Int(columns.1)
  }
}

/// An `events` row as selected (`session_id, seq, at, origin, op, cause, hash`).
enum EventRowColumns {
  typealias Columns = (String, Int64, Int64, String, String, String?, ByteBuffer)
  static let selectList = "session_id, seq, at, origin, op, cause, hash"

  static func row(_ columns: Columns) throws(StoreError) -> StoredEventRow {
    StoredEventRow(
      session: try SessionRecord.sessionID(columns.0), seq: Int(columns.1), at: columns.2, origin: columns.3,
      op: Array(columns.4.utf8), cause: columns.5.map { Array($0.utf8) }, hash: columns.6.bytes)
  }
}

/// The columns of new events, one array per column, for one `INSERT ... SELECT FROM unnest(...)`.
struct EventColumnsBatch {
  var sessions: [String] = []
  var months: [Int32] = []
  var seqs: [Int64] = []
  var times: [Int64] = []
  var origins: [String] = []
  var operations: [String] = []
  /// A cause's text, or `""` for none (a cause is JSON, never empty).
  var causes: [String] = []
  var hashes: [ByteBuffer] = []

  mutating func add(_ prepared: PreparedEvent, session: String, month: Int) {
    sessions.append(session)
    months.append(Int32(month))
    seqs.append(Int64(prepared.seq))
    times.append(prepared.event.at.millisecondsSince1970)
    origins.append(prepared.event.origin.rawValue)
    operations.append(String(decoding: prepared.operationBytes, as: UTF8.self))
    causes.append(prepared.event.cause?.canonicalString ?? "")
    hashes.append(ByteBuffer(bytes: prepared.hash))
  }
}

/// New sessions' rows and every changed session's totals, one array per column.
struct SessionColumnsBatch {
  var newSessions: [String] = []
  var newMonths: [Int32] = []
  /// The session a new one continues, or `""`.
  var links: [String] = []
  /// The seq it continues from, or 0.
  var linkSeqs: [Int64] = []
  /// The start's context as canonical JSON, or `""`.
  var contexts: [String] = []

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

  /// A new session's row, from its first event (its `start`).
  mutating func addNew(session: String, month: Int, start: AnyEvent) throws(StoreError) {
    newSessions.append(session)
    newMonths.append(Int32(month))
    let link = start.operation.restoredFrom
    links.append(link?.session.rawValue ?? "")
    linkSeqs.append(Int64(link?.seq ?? 0))
    if let context = start.operation.context {
      do throws(WireFormatError) {
        contexts.append(try WireFormat.canonicalString(context))
      } catch {
        throw StoreError.unencodable(error)
      }
    } else {
      contexts.append("")
    }
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
      SELECT \(unescaped: EventRowColumns.selectList) FROM events
        WHERE app = \(app.rawValue) AND session_id = \(session.rawValue) AND month = \(Int32(month))
          AND seq BETWEEN \(Int64(from)) AND \(Int64(to))
        ORDER BY seq
      """, logger: logger)
    var failure: (any Error)?
    for try await columns in rows.decode(EventRowColumns.Columns.self) where failure == nil {
      do {
        try body(try EventRowColumns.row(columns))
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Runs a statement whose rows, if any, are not wanted, and reads them to the end: a row
  /// stream left unread holds the connection, and the transaction's `COMMIT` would wait behind
  /// it for good.
  func run(_ query: PostgresQuery, logger: Logger) async throws {
    for try await _ in try await self.query(query, logger: logger) {}
  }
}
