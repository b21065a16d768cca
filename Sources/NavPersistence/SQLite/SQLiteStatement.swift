import CSQLite

/// A prepared statement: bind, step, read columns.
///
/// Owned by one connection and used on its thread only; the connection caches them by SQL, so a
/// hot statement is compiled once. Every step's failure becomes a `SQLiteError` naming the SQL.
package final class SQLiteStatement {
  let handle: OpaquePointer
  /// The statement's SQL.
  package let sql: String
  private let connection: OpaquePointer

  init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement else {
      throw SQLiteError.last(on: connection, code: code, sql: sql)
    }
    self.handle = statement
    self.sql = sql
    self.connection = connection
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// The failure `code` just returned on this statement, with SQLite's message.
  func error(_ code: Int32) -> SQLiteError {
    SQLiteError.last(on: connection, code: code, sql: sql)
  }

  /// Clears the previous run: bindings and position.
  package func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  // MARK: Binding (1-based, as SQLite counts)

  /// Binds values to the parameters in order, from 1.
  package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
    for (offset, value) in values.enumerated() {
      try bind(value, at: Int32(offset + 1))
    }
  }

  /// Binds one value.
  package func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
    let code: Int32
    switch value {
    case .null:
      code = sqlite3_bind_null(handle, index)
    case .integer(let integer):
      code = sqlite3_bind_int64(handle, index, integer)
    case .real(let real):
      code = sqlite3_bind_double(handle, index, real)
    case .text(let text):
      var text = text
      code = text.withUTF8 { bytes in Self.bindText(bytes, to: handle, at: index) }
    case .utf8Text(let bytes):
      code = bytes.withUnsafeBufferPointer { buffer in Self.bindText(buffer, to: handle, at: index) }
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { buffer in
        sqlite3_bind_blob64(handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), SQLiteStatement.transient)
      }
    }
    guard code == SQLITE_OK else { throw SQLiteError.last(on: connection, code: code, sql: sql) }
  }

  /// Binds UTF-8 bytes as text, by length (no C string, no scan for its end).
  private static func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to handle: OpaquePointer, at index: Int32) -> Int32
  {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      return sqlite3_bind_text(handle, index, "", 0, transient)
    }
    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
      sqlite3_bind_text64(handle, index, text, sqlite3_uint64(bytes.count), transient, UInt8(SQLITE_UTF8))
    }
  }

  /// SQLite copies the bound bytes (the buffers are Swift's and may move).
  static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  // MARK: Stepping

  /// Advances to the next row; `false` when the statement is done.
  @discardableResult
  package func step() throws(SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw SQLiteError.last(on: connection, code: code, sql: sql)
    }
  }

  /// Runs a statement that returns no rows. When `values` binds every parameter, the old
  /// bindings are simply replaced; otherwise they are cleared first, so unbound ones are NULL.
  package func execute(_ values: [SQLiteValue] = []) throws(SQLiteError) {
    if values.count == Int(sqlite3_bind_parameter_count(handle)) {
      sqlite3_reset(handle)
    } else {
      reset()
    }
    try bind(values)
    while try step() {}
  }

  // MARK: Columns (0-based, as SQLite counts)

  /// How many columns each row has.
  package var columnCount: Int32 { sqlite3_column_count(handle) }

  /// A column as whatever type SQLite holds it in.
  package func value(_ column: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER: .integer(int64(column))
    case SQLITE_FLOAT: .real(double(column))
    case SQLITE_TEXT: .text(text(column))
    case SQLITE_BLOB: .blob(blob(column))
    default: .null
    }
  }

  /// Whether the column is NULL in the current row.
  package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  /// An integer column.
  package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  /// An integer column as `Int`.
  package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

  /// A real column.
  package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// A text column (empty for NULL).
  package func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
  }

  /// A text column's UTF-8 bytes, without building a `String`.
  package func textBytes(_ column: Int32) -> [UInt8] {
    guard let pointer = sqlite3_column_text(handle, column) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, column))
    return Array(UnsafeBufferPointer(start: pointer, count: count))
  }

  /// Calls `body` with a text column's UTF-8 bytes in place, without copying them (empty for
  /// NULL). The bytes are SQLite's and live only until the next step: `body` must not keep them.
  package func withTextBytes<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    let pointer = sqlite3_column_text(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    return try body(UnsafeBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
  }

  /// Calls `body` with a blob column's bytes in place (empty for NULL), under the same rule as
  /// `withTextBytes`.
  package func withBlobBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows
    -> Result
  {
    let pointer = sqlite3_column_blob(handle, column)
    let count = Int(sqlite3_column_bytes(handle, column))
    return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
  }

  /// A blob column (empty for NULL).
  package func blob(_ column: Int32) -> [UInt8] {
    guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
    let count = Int(sqlite3_column_bytes(handle, column))
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }
}

/// A value SQLite stores.
package enum SQLiteValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  /// Text given as its UTF-8 bytes, bound without making a `String` first (the store writes
  /// canonical JSON it already holds as bytes). SQLite stores it as text, so it reads back as
  /// `.text`; as Swift values, `.utf8Text(bytes)` and `.text(string)` are never equal.
  case utf8Text([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
  package init(integerLiteral value: Int64) { self = .integer(value) }
  package init(stringLiteral value: String) { self = .text(value) }
  package init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue {
  /// An integer value from `Int`.
  package static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
  /// A text value, or NULL.
  package static func optionalText(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}
