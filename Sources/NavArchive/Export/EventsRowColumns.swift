@_spi(Internals) import NavHistory

/// The columns of one stored event as the events export reads them (`EventColumn`'s, by their
/// raw values): a statement on its row, or a row copied out of it to be written on another
/// thread (`CopiedEventsRows`).
package protocol EventsRowColumns {
  /// An integer column.
  func int64(_ column: Int32) -> Int64
  /// Whether the column is NULL.
  func isNull(_ column: Int32) -> Bool
  /// Calls `body` with a text column's UTF-8 bytes in place (empty for NULL).
  func withTextBytes<Result>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result
  /// Calls `body` with a blob column's bytes in place (empty for NULL).
  func withBlobBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}
