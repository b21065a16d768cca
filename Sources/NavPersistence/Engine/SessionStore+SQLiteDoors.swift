/// The doors the collector's SQLite engine opens onto the store's connections, for its own
/// tables beside the store's: each the store's transaction, with the raw connection inside.
extension SessionStore {
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
