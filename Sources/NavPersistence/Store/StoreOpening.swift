import CSQLite
import Foundation

/// Opening a store file: every way a file can be wrong gets one clear error, and a file that is
/// refused is not modified (nothing is written before every check has passed).
enum StoreOpening {
  static func open(path: String, options: StoreOptions) throws(StoreError) -> SQLiteConnection {
    let exists = FileManager.default.fileExists(atPath: path)
    // Told before SQLite opens the file, which would make an empty `-wal` of its own. Only a
    // read is refused: the file alone cannot tell a copy made without its `-wal` from a store
    // whose creation failed before its first transaction, which a write may finish.
    if exists, options.access == .readOnly,
      Self.lacksTheWALItsDataIsIn(path, waitingUpTo: min(options.busyTimeoutMilliseconds, 1000))
    {
      throw .walMissing(path: path)
    }
    switch options.access {
    case .readOnly:
      guard exists else { throw .storeMissing(path: path) }
    case .readWrite:
      let folder = (path as NSString).deletingLastPathComponent
      if !exists, !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
        throw .folderMissing(path: path)
      }
    }
    let connection: SQLiteConnection
    do {
      connection = try SQLiteConnection(
        path: path, mode: options.access == .readOnly ? .readOnly : .readWrite(create: true),
        busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
    } catch {
      throw error.code == SQLITE_CANTOPEN || error.code == SQLITE_READONLY
        ? .readOnly(path: path) : .from(error, path: path)
    }
    // A SQLite failure here says what the file is: not a database, damaged, read-only.
    func checked<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
      do {
        return try body()
      } catch {
        if error.code == SQLITE_NOTADB { throw .notADatabase(path: path) }
        if error.code == SQLITE_CORRUPT { throw .damaged(path: path) }
        if error.code == SQLITE_READONLY { throw .readOnly(path: path) }
        throw .from(error, path: path)
      }
    }
    // Reading the header is what tells a database from any other file.
    _ = try checked { () throws(SQLiteError) in try connection.integer("PRAGMA schema_version") }
    // The version and the tables in one statement, so one snapshot: another process creating
    // the store at this moment is seen either before its first migration or after it.
    let (version, tableCount) = try checked { () throws(SQLiteError) in try versionAndTableCount(connection) }
    let latest = Migrator.latestVersion
    if version > latest { throw StoreError.newerSchema(path: path, found: version, supported: latest) }
    let hasTables = tableCount > 0
    if version == 0, hasTables { throw StoreError.notAStore(path: path) }
    switch options.access {
    case .readOnly:
      if version == 0 { throw StoreError.notAStore(path: path) }
      if version < latest { throw StoreError.olderSchema(path: path, found: version, supported: latest) }
    case .readWrite:
      if connection.isReadOnly { throw StoreError.readOnly(path: path) }
      try checked { () throws(SQLiteError) in
        try enableWAL(connection, waitingUpTo: options.busyTimeoutMilliseconds)
        try connection.execute("PRAGMA synchronous = \(options.durability == .full ? "FULL" : "NORMAL")")
        try Migrator.migrate(connection, now: Int64(Date().timeIntervalSince1970 * 1000))
        if let pages = options.maximumPageCount {
          try connection.execute("PRAGMA max_page_count = \(max(1, pages))")
        }
      }
    }
    return connection
  }

  /// Whether the file is a store whose schema, and so its events, are only in a `-wal` file
  /// that is not beside it. Another process creating the store at this moment looks the same
  /// for an instant (it has switched the file to WAL and not yet written its first
  /// transaction), so the answer is yes only when it stays so for `milliseconds`.
  private static func lacksTheWALItsDataIsIn(_ path: String, waitingUpTo milliseconds: Int32) -> Bool {
    var waited: Int32 = 0
    while !FileManager.default.fileExists(atPath: path + "-wal") && hasItsSchemaOnlyInTheWAL(path) {
      guard waited < milliseconds else { return true }
      usleep(5_000)
      waited += 5
    }
    return false
  }

  /// Whether the file's header says WAL mode (read and write versions 2, set when a store is
  /// created) and no schema yet (schema cookie 0): the store's tables were all still in the
  /// `-wal` file, never checkpointed into this one.
  private static func hasItsSchemaOnlyInTheWAL(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 100), data.count == 100 else { return false }
    let header = Array(data)
    return header.starts(with: Array("SQLite format 3\u{0}".utf8)) && header[18] == 2 && header[19] == 2
      && header[40..<44].allSatisfy { $0 == 0 }
  }

  private static func versionAndTableCount(_ connection: SQLiteConnection) throws(SQLiteError) -> (Int, Int) {
    let statement = try connection.statement(
      "SELECT user_version, (SELECT count(*) FROM sqlite_master) FROM pragma_user_version")
    defer { statement.reset() }
    guard try statement.step() else { return (0, 0) }
    return (statement.int(0), statement.int(1))
  }

  /// Switches the file to WAL unless it already is. The switch needs an exclusive lock that
  /// SQLite does not wait for, so when another process holds one (it is creating the store at
  /// the same moment) this retries until the busy timeout.
  private static func enableWAL(_ connection: SQLiteConnection, waitingUpTo milliseconds: Int32) throws(SQLiteError) {
    var waited: Int32 = 0
    while true {
      do {
        if try connection.text("PRAGMA journal_mode")?.lowercased() == "wal" { return }
        _ = try connection.text("PRAGMA journal_mode = WAL")
        return
      } catch  where error.isBusy && waited < milliseconds {
        usleep(5_000)
        waited += 5
      }
    }
  }
}
