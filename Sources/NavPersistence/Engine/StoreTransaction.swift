import NavContract
import NavCore
@_spi(Internals) import NavHistory

/// One write transaction on a store, as the collector's module (NavFleet) sees it: appends by
/// the store's rules, and the little it needs to read of a session's row between them. Only
/// lent by `SessionStore.withTransaction(_:)`, for the length of its body: not to be kept.
package struct StoreTransaction {
  let engine: StoreEngine

  /// Appends `event` by the store's rules (see `SessionStore.append(_:)`).
  package func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    try engine.append(event)
  }

  /// The session's last seq (0: no event, or no session).
  package func eventCount(of session: SessionID) throws(StoreError) -> Int {
    try engine.sessionRow(session)?.count ?? 0
  }

  /// The session's last seq and the chain value after it, lowercase hex (`nil` before the first
  /// event).
  package func head(of session: SessionID) throws(StoreError) -> SessionHead {
    guard let row = try engine.sessionRow(session), row.count > 0 else { return .none }
    return SessionHead(seq: row.count, hash: HashChain.hex(row.headHash))
  }

  /// The context the session's stored `start` names (`nil`: no event stored, or no context, or
  /// one edited out of shape).
  package func startContext(of session: SessionID) throws(StoreError) -> SessionContext? {
    guard let record = try engine.sessionRecord(session), record.eventCount > 0 else { return nil }
    return record.context.flatMap { try? WireFormat.decode(SessionContext.self, from: $0) }
  }
}

extension SessionStore {
  /// Runs `body` in one immediate write transaction: committed when it returns, rolled back
  /// (nothing of it kept) when it throws.
  package func withTransaction<T>(_ body: (StoreTransaction) throws(StoreError) -> T) throws(StoreError)
    -> T
  {
    try withWriteTransaction { engine throws(StoreError) in try body(StoreTransaction(engine: engine)) }
  }

  /// Runs `body` on the writer's connection in one immediate write transaction, for tables the
  /// store itself knows nothing of (the collector's own): rolled back when it throws.
  package func withWriteTransaction<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StoreError) -> T {
    try withWriteTransaction { engine throws(StoreError) in
      try engine.sql { () throws(SQLiteError) in try body(engine.connection) }
    }
  }

  /// Runs `body` on the writer's connection outside any transaction: for work that makes its
  /// own transactions (the collector's migrations).
  package func withConnectionOutsideTransactions<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T)
    throws(StoreError) -> T
  {
    try withWriterOutsideTransactions { engine throws(StoreError) in
      try engine.sql { () throws(SQLiteError) in try body(engine.connection) }
    }
  }

  /// Runs `body` on a reader's connection in one read transaction (one snapshot of the file).
  package func withReadTransaction<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StoreError) -> T {
    try withReadTransaction { engine throws(StoreError) in
      try engine.sql { () throws(SQLiteError) in try body(engine.connection) }
    }
  }
}

extension StoreError {
  /// The failure of SQLite work on the store at `path`, classified as the store classifies its
  /// own (a full disk, a lock held too long, a failing disk, another SQLite error).
  package static func storage(_ error: SQLiteError, path: String) -> StoreError { from(error, path: path) }

  /// Whether this is schema 13 refusing to drop the old `apps` and `tokens` tables while they
  /// hold a collector's rows (which NavFleet moves first).
  package var isCollectorTablesCheck: Bool {
    guard case .sqlite(let error) = self else { return false }
    return error.isConstraint && error.message.contains("collector_tokens_and_apps_must_move_first")
  }
}
