@_spi(Internals) import NavArchive
import NavCore
import NavPersistence

extension StoreEngine {
  /// Whether `session` is named for the first time in the import under way, kept in a
  /// temporary table (on disk beyond SQLite's small cache) rather than a set in memory, so an
  /// import of any number of sessions counts them in constant memory.
  func isFirstInImport(_ session: SessionID) throws(StoreError) -> Bool {
    let statement = try prepare("INSERT OR IGNORE INTO temp.imported_sessions (id) VALUES (?)")
    try execute(statement, [.text(session.rawValue)])
    return connection.changes == 1
  }

  /// Empties (creating when needed) the table `isFirstInImport` fills.
  func beginImportCount() throws(StoreError) {
    try run("CREATE TEMP TABLE IF NOT EXISTS imported_sessions (id TEXT PRIMARY KEY) WITHOUT ROWID")
    try run("DELETE FROM temp.imported_sessions")
  }
}
