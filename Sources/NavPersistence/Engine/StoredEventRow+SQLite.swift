import NavCore
@_spi(Internals) import NavHistory

extension StoredEventRow {
  /// The row the statement is on, selected with `EventColumn.selectList`, for `session`
  /// (already read from it and checked).
  package init(_ statement: SQLiteStatement, session: SessionID) {
    self.init(
      session: session, seq: statement.int(EventColumn.seq), at: statement.int64(EventColumn.at),
      origin: statement.text(EventColumn.origin), op: statement.textBytes(EventColumn.operation),
      cause: statement.isNull(EventColumn.cause) ? nil : statement.textBytes(EventColumn.cause),
      hash: statement.blob(EventColumn.hash), received: statement.int64(EventColumn.received))
  }
}
