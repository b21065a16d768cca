import NavCore

extension SQLiteStatement {
  /// The session id stored in `column` of the row the statement is on, checked as the history's
  /// rules check one (a file edited outside NavStore can hold anything there).
  package func sessionID(_ column: Int32) throws(StoreError) -> SessionID {
    try StoreError.ruling(SessionRecord.sessionID(text(column)))
  }
}
