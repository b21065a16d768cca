import CSQLite

/// One run of a statement that returns no rows, its parameters bound to bytes SQLite reads in
/// place instead of copying (`SQLITE_STATIC`): the store's hottest inserts, where the copies
/// and the arrays of `SQLiteValue` cost more than the insert's own bookkeeping.
///
/// The caller binds inside the closures that keep the bytes alive (`withUnsafeBufferPointer`,
/// `withUTF8`) and calls `run()` there too; `run()` unbinds everything before it returns, so the
/// statement never points at bytes that are gone. A failed bind is kept and reported by `run()`.
package struct BorrowedExecution: ~Copyable {
  private let statement: SQLiteStatement
  private var failure: Int32 = SQLITE_OK

  /// Starts a run of `statement` (reset from its previous run).
  package init(_ statement: SQLiteStatement) {
    self.statement = statement
    sqlite3_reset(statement.handle)
  }

  private mutating func note(_ code: Int32) {
    if failure == SQLITE_OK, code != SQLITE_OK { failure = code }
  }

  /// Binds an integer to parameter `index` (from 1).
  package mutating func bind(_ value: Int64, at index: Int32) {
    note(sqlite3_bind_int64(statement.handle, index, value))
  }

  /// Binds NULL to parameter `index`.
  package mutating func bindNull(at index: Int32) {
    note(sqlite3_bind_null(statement.handle, index))
  }

  /// Binds UTF-8 bytes as text, in place: they must live until `run()` returns.
  package mutating func bind(text bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
    // SQLite reads a NULL pointer as NULL, not as empty text.
    guard let base = bytes.baseAddress else { return note(sqlite3_bind_text(statement.handle, index, "", 0, nil)) }
    note(
      base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
        sqlite3_bind_text64(statement.handle, index, text, sqlite3_uint64(bytes.count), nil, UInt8(SQLITE_UTF8))
      })
  }

  /// Binds bytes as a blob, in place: they must live until `run()` returns.
  package mutating func bind(blob bytes: UnsafeRawBufferPointer, at index: Int32) {
    guard let base = bytes.baseAddress else { return note(sqlite3_bind_zeroblob(statement.handle, index, 0)) }
    note(sqlite3_bind_blob64(statement.handle, index, base, sqlite3_uint64(bytes.count), nil))
  }

  /// Steps the statement to its end, then resets and unbinds it. Returns the failure (of a
  /// bind or of the step), or `nil`.
  package mutating func run() -> SQLiteError? {
    defer {
      sqlite3_reset(statement.handle)
      sqlite3_clear_bindings(statement.handle)
    }
    if failure != SQLITE_OK { return statement.error(failure) }
    while true {
      let code = sqlite3_step(statement.handle)
      if code == SQLITE_DONE { return nil }
      if code != SQLITE_ROW { return statement.error(code) }
    }
  }
}
