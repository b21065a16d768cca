import NavCore

/// The columns of an `events` row, in the order every event query selects them.
enum EventColumn: Int32, ResultColumns {
  case sessionID, seq, at, origin, operation, cause, hash

  var expression: String {
    switch self {
    case .sessionID: "session_id"
    case .seq: "seq"
    case .at: "at"
    case .origin: "origin"
    case .operation: "op"
    case .cause: "cause"
    case .hash: "hash"
    }
  }
}

extension StoredEventRow {
  /// The row the statement is on, selected with `EventColumn.selectList`, for `session`
  /// (already read from it and checked).
  init(_ statement: SQLiteStatement, session: SessionID) {
    self.init(
      session: session, seq: statement.int(EventColumn.seq), at: statement.int64(EventColumn.at),
      origin: statement.text(EventColumn.origin), op: statement.textBytes(EventColumn.operation),
      cause: statement.isNull(EventColumn.cause) ? nil : statement.textBytes(EventColumn.cause),
      hash: statement.blob(EventColumn.hash))
  }
}
