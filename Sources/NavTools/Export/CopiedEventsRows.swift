@_spi(Internals) import NavArchive
import NavCore
import NavPersistence

/// Stored events' columns copied out of SQLite's row, back to back in one buffer, so that a
/// second thread can write them out (`CSVExportPipeline`) while the reading thread steps on.
struct CopiedEventsRows: Sendable {
  /// One row: its session and numbers, and where its text and blob columns lie in `bytes`.
  struct Row: Sendable {
    var session: SessionID
    var seq: Int64
    var at: Int64
    var origin: Range<Int>
    var operation: Range<Int>
    /// `nil` for NULL.
    var cause: Range<Int>?
    var hash: Range<Int>
    var received: Int64
    /// Whether the event is earlier than the event before it.
    var clockWentBack: Bool
  }

  private(set) var bytes: [UInt8] = []
  private(set) var rows: [Row] = []

  init(byteCapacity: Int, rowCapacity: Int) {
    bytes.reserveCapacity(byteCapacity)
    rows.reserveCapacity(rowCapacity)
  }

  /// Copies the statement's row (the events query's columns).
  mutating func append(_ statement: SQLiteStatement, session: SessionID, clockWentBack: Bool) {
    rows.append(
      Row(
        session: session, seq: statement.int64(EventColumn.seq.rawValue), at: statement.int64(EventColumn.at.rawValue),
        origin: statement.withTextBytes(EventColumn.origin.rawValue) { copy($0) },
        operation: statement.withTextBytes(EventColumn.operation.rawValue) { copy($0) },
        cause: statement.isNull(EventColumn.cause.rawValue)
          ? nil : statement.withTextBytes(EventColumn.cause.rawValue) { copy($0) },
        hash: statement.withBlobBytes(EventColumn.hash.rawValue) { copy($0) },
        received: statement.int64(EventColumn.received.rawValue), clockWentBack: clockWentBack))
  }

  private mutating func copy(_ source: some Collection<UInt8>) -> Range<Int> {
    let start = bytes.count
    bytes.append(contentsOf: source)
    return start..<bytes.count
  }

  /// Calls `body` with each row as columns, in order.
  func forEachRow<E: Error>(_ body: (RowColumns, SessionID, _ clockWentBack: Bool) throws(E) -> Void) throws(E) {
    try bytes.withUnsafeBufferPointer { buffer throws(E) in
      for row in rows { try body(RowColumns(row: row, bytes: buffer), row.session, row.clockWentBack) }
    }
  }

  /// A copied row read as the statement's row would be.
  struct RowColumns: EventsRowColumns {
    let row: Row
    let bytes: UnsafeBufferPointer<UInt8>

    func int64(_ column: Int32) -> Int64 {
      switch EventColumn(rawValue: column) {
      case .seq: row.seq
      case .at: row.at
      case .received: row.received
      default: 0
      }
    }

    func isNull(_ column: Int32) -> Bool {
      column == EventColumn.cause.rawValue && row.cause == nil
    }

    private func range(_ column: Int32) -> Range<Int> {
      switch EventColumn(rawValue: column) {
      case .origin: row.origin
      case .operation: row.operation
      case .cause: row.cause ?? 0..<0
      case .hash: row.hash
      default: 0..<0
      }
    }

    func withTextBytes<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
      -> Result
    {
      try body(UnsafeBufferPointer(rebasing: bytes[range(column)]))
    }

    func withBlobBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
      try body(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[range(column)]))
    }
  }
}
