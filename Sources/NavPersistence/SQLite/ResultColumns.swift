@_spi(Internals) import NavHistory

extension SQLiteStatement {
  /// Whether the column is NULL in the current row.
  package func isNull(_ column: some ResultColumns) -> Bool { isNull(column.rawValue) }
  /// The column as a 64-bit integer.
  package func int64(_ column: some ResultColumns) -> Int64 { int64(column.rawValue) }
  /// The column as an `Int`.
  package func int(_ column: some ResultColumns) -> Int { int(column.rawValue) }
  /// The column as text.
  package func text(_ column: some ResultColumns) -> String { text(column.rawValue) }
  /// The column's text as UTF-8 bytes.
  package func textBytes(_ column: some ResultColumns) -> [UInt8] { textBytes(column.rawValue) }
  /// The column as bytes.
  package func blob(_ column: some ResultColumns) -> [UInt8] { blob(column.rawValue) }
  /// The column as an integer, or `nil` when it is NULL.
  package func optionalInt64(_ column: some ResultColumns) -> Int64? { isNull(column) ? nil : int64(column) }
  /// The column as text, or `nil` when it is NULL.
  package func optionalText(_ column: some ResultColumns) -> String? { isNull(column) ? nil : text(column) }
}
