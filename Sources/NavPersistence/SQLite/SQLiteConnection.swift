import CSQLite

/// One connection to a SQLite database file.
///
/// Deliberately thin, in the spirit of GRDB: it opens the file with the settings the store
/// relies on (extended error codes, foreign keys, a busy timeout, WAL for writers), caches
/// prepared statements by SQL, and runs immediate transactions that roll back on any error.
/// A connection is used by one thread at a time; `SessionStore` guards its own.
package final class SQLiteConnection {
  /// How to open the file.
  package enum Mode: Sendable {
    /// Read and write; create the file when `create` is true.
    case readWrite(create: Bool)
    /// Read only; the file must exist.
    case readOnly
  }

  let handle: OpaquePointer
  /// The file's path, as given.
  package let path: String
  private var statements: [String: SQLiteStatement] = [:]
  private var beginStatement: SQLiteStatement?
  private var commitStatement: SQLiteStatement?

  /// Opens a database file.
  package init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    switch mode {
    case .readWrite(let create): flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    }
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard code == SQLITE_OK, let connection else {
      let error = SQLiteError.last(on: connection, code: code)
      sqlite3_close_v2(connection)
      throw error
    }
    self.handle = connection
    self.path = path
    sqlite3_extended_result_codes(connection, 1)
    sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
    try execute("PRAGMA foreign_keys = ON")
  }

  deinit {
    statements.removeAll()
    beginStatement = nil
    commitStatement = nil
    sqlite3_close_v2(handle)
  }

  /// Whether the file was opened read-only (asked for, or forced by the file system).
  package var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Runs SQL that returns no rows; several statements separated by `;` are allowed.
  package func execute(_ sql: String) throws(SQLiteError) {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw SQLiteError.last(on: handle, code: code, sql: sql) }
  }

  /// A prepared statement for `sql`, compiled once per connection and reset for reuse.
  ///
  /// A statement stepped part way holds a read transaction open until it is reset, so callers
  /// that stop before the last row reset it (`defer { statement.reset() }`).
  package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    if let cached = statements[sql] {
      cached.reset()
      return cached
    }
    let statement = try SQLiteStatement(connection: handle, sql: sql)
    statements[sql] = statement
    return statement
  }

  /// The first column of the first row of a query, as an integer (`nil` when there is no row).
  package func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
    try firstValue(sql, values) { $0.int64(0) }
  }

  /// The first column of the first row of a query, as text (`nil` when there is no row).
  package func text(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
    try firstValue(sql, values) { $0.text(0) }
  }

  private func firstValue<T>(
    _ sql: String, _ values: [SQLiteValue], _ read: (SQLiteStatement) -> T
  ) throws(SQLiteError) -> T? {
    let statement = try statement(sql)
    defer { statement.reset() }
    try statement.bind(values)
    guard try statement.step(), !statement.isNull(0) else { return nil }
    return read(statement)
  }

  /// Runs `body` in an immediate transaction: the write lock is taken up front (so a conflict
  /// surfaces as `SQLITE_BUSY` at `BEGIN`, not halfway through), committed when `body` returns
  /// and rolled back when anything throws. `classify` turns a failure of `BEGIN` or `COMMIT`
  /// into the body's error type, so a caller with errors of its own keeps them typed.
  package func immediateTransaction<T, Failure: Error>(
    _ body: () throws(Failure) -> T, classify: (SQLiteError) -> Failure
  ) throws(Failure) -> T {
    // Prepared once and kept: parsing `BEGIN IMMEDIATE` and `COMMIT` again for every
    // transaction was a measurable part of a one-event write.
    func run(_ step: TransactionStep) throws(Failure) {
      do {
        let statement = try transactionStatement(step)
        defer { sqlite3_reset(statement.handle) }
        try statement.step()
      } catch {
        throw classify(error)
      }
    }
    try run(.begin)
    do {
      let result = try body()
      try run(.commit)
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// The two statements every write transaction runs.
  private enum TransactionStep: String {
    case begin = "BEGIN IMMEDIATE"
    case commit = "COMMIT"
  }

  /// The prepared `BEGIN IMMEDIATE` or `COMMIT`, kept apart from `statements` (whose lookup
  /// hashes the SQL text).
  private func transactionStatement(_ step: TransactionStep) throws(SQLiteError) -> SQLiteStatement {
    if let kept = step == .begin ? beginStatement : commitStatement { return kept }
    let statement = try SQLiteStatement(connection: handle, sql: step.rawValue)
    switch step {
    case .begin: beginStatement = statement
    case .commit: commitStatement = statement
    }
    return statement
  }

  /// `immediateTransaction` for SQLite work alone.
  package func immediateTransaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
    try immediateTransaction(body, classify: { $0 })
  }

  /// Rows changed by the last statement.
  package var changes: Int { Int(sqlite3_changes64(handle)) }

  /// The rowid of the last row this connection inserted.
  package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}
