import CSQLite

/// One run of a statement that returns no rows, its parameters bound to bytes SQLite reads in
/// place instead of copying (`SQLITE_STATIC`): the store's hottest inserts, where the copies
/// and the arrays of `SQLiteValue` cost more than the insert's own bookkeeping.
///
/// The caller binds inside the closures that keep the bytes alive (`withUnsafeBufferPointer`,
/// `withUTF8`) and calls `run()` there too. A run must bind every parameter (`run()` refuses one
/// that does not), so the bytes a previous run left bound are never read: SQLite reads bound
/// values only when stepping. Unbinding after every run instead cost a tenth of the writer's
/// own work in an import. A failed bind is kept and reported by `run()`.
package struct BorrowedExecution: ~Copyable {
  private let statement: SQLiteStatement
  private var failure: Int32 = SQLITE_OK
  /// Which parameters were bound, one bit each (parameters 1 to 63).
  private var bound: UInt64 = 0

  /// Starts a run of `statement` (reset from its previous run).
  package init(_ statement: SQLiteStatement) {
    self.statement = statement
    sqlite3_reset(statement.handle)
  }

  private mutating func note(_ code: Int32, at index: Int32) {
    if failure == SQLITE_OK, code != SQLITE_OK { failure = code }
    if (1...63).contains(index) { bound |= 1 << UInt64(index) }
  }

  /// Binds an integer to parameter `index` (from 1).
  package mutating func bind(_ value: Int64, at index: Int32) {
    note(sqlite3_bind_int64(statement.handle, index, value), at: index)
  }

  /// Binds NULL to parameter `index`.
  package mutating func bindNull(at index: Int32) {
    note(sqlite3_bind_null(statement.handle, index), at: index)
  }

  /// Binds UTF-8 bytes as text, in place: they must live until `run()` returns.
  package mutating func bind(text bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
    // SQLite reads a NULL pointer as NULL, not as empty text.
    guard let base = bytes.baseAddress else {
      return note(sqlite3_bind_text(statement.handle, index, "", 0, nil), at: index)
    }
    note(
      base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
        sqlite3_bind_text64(statement.handle, index, text, sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))
      }, at: index)
  }

  /// Binds bytes as a blob, in place: they must live until `run()` returns.
  package mutating func bind(blob bytes: UnsafeRawBufferPointer, at index: Int32) {
    guard let base = bytes.baseAddress else {
      return note(sqlite3_bind_zeroblob(statement.handle, index, 0), at: index)
    }
    note(sqlite3_bind_blob64(statement.handle, index, base, sqlite3_uint64(bytes.count), nil), at: index)
  }

  /// Steps the statement to its end, then resets it. Returns the failure (of a bind, or of
  /// the step), or `nil`; a run that left a parameter unbound is refused unstepped.
  package mutating func run() -> SQLiteError? {
    defer { sqlite3_reset(statement.handle) }
    if failure != SQLITE_OK { return statement.error(failure) }
    let parameters = sqlite3_bind_parameter_count(statement.handle)
    guard parameters < 64, bound == (UInt64(1) << UInt64(parameters + 1)) - 2 else {
      // Unbound, a parameter would still point at the bytes of a previous run.
      sqlite3_clear_bindings(statement.handle)
      return SQLiteError(extendedCode: SQLITE_MISUSE, message: "a parameter was left unbound", sql: statement.sql)
    }
    while true {
      let code = sqlite3_step(statement.handle)
      if code == SQLITE_DONE { return nil }
      if code != SQLITE_ROW { return statement.error(code) }
    }
  }
}
