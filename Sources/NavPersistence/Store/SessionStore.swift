import CSQLite
import Foundation
import NavCore

/// The durable home of recorded sessions: one SQLite file, an append-only event log per session,
/// periodic snapshots, and a hash chain over every session's history.
///
/// Safe to share between threads and tasks: writes go through one connection, one immediate
/// transaction each (a refused operation writes nothing); reads run on read-only connections of
/// their own, beside the writer. <doc:StoreGuarantees> lists what it promises and how each promise
/// is tested.
public final class SessionStore: Sendable {
  /// The file's path.
  public let path: String
  /// How the store was opened.
  package let options: StoreOptions
  /// `nil` for a store opened read-only.
  private let writer: WriterLock?
  /// `nil` for an in-memory database, which other connections cannot see: reads then go
  /// through the writer.
  let readers: ReaderPool?
  /// Yields after each write transaction commits.
  package let changes = StoreChanges()

  /// Opens (and for writers, creates and migrates) the store at `path`.
  public init(path: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
    self.path = path
    self.options = options
    let engine = StoreEngine(
      connection: try StoreOpening.open(path: path, options: options), options: options, path: path)
    let open: @Sendable () throws(StoreError) -> StoreEngine = { () throws(StoreError) in
      do throws(SQLiteError) {
        let connection = try SQLiteConnection(
          path: path, mode: .readOnly, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        return StoreEngine(connection: connection, options: options, path: path)
      } catch {
        throw StoreError.from(error, path: path)  // opening a reader failed
      }
    }
    switch options.access {
    case .readOnly:
      writer = nil
      readers = ReaderPool(idleLimit: options.idleReaderLimit, first: engine, open: open)
    case .readWrite:
      writer = WriterLock(engine)
      readers = Self.isInMemory(path) ? nil : ReaderPool(idleLimit: options.idleReaderLimit, open: open)
    }
  }

  /// Closes the readers before the writer. The last connection to close a WAL database
  /// checkpoints it and deletes its `-wal` file only if it can write; closed in this order, a
  /// store that no program has open is one file, which can be copied alone.
  deinit {
    readers?.closeIdleConnections()
  }

  /// Whether SQLite keeps the database at `path` in this connection's memory only.
  static func isInMemory(_ path: String) -> Bool {
    path.isEmpty || path == ":memory:" || path.hasPrefix("file:")
  }

  /// The schema version of the store.
  package func schemaVersion() throws(StoreError) -> Int {
    try withReadTransaction { engine throws(StoreError) in
      Int(try engine.sql { () throws(SQLiteError) in try engine.connection.integer("PRAGMA user_version") } ?? 0)
    }
  }

  /// The newest schema version this build of NavStore knows.
  package static var latestSchemaVersion: Int { Migrator.latestVersion }

  // MARK: Connections

  /// Runs `body` in one immediate write transaction on the writer. With
  /// `withReadTransaction(_:)`, the one door to the engine: the store's own procedures and the
  /// modules built on the store file (the tools, the uploader's queue, the collector's SQLite
  /// engine) go through it.
  package func withWriteTransaction<T>(_ body: (StoreEngine) throws(StoreError) -> T) throws(StoreError) -> T {
    guard let writer else { throw .readOnly(path: path) }
    let result = try writer.withEngine { engine throws(StoreError) in
      try engine.write { () throws(StoreError) in try body(engine) }
    }
    changes.changed()
    return result
  }

  /// Runs `body` on the writer outside any transaction, for what SQLite runs only there
  /// (`VACUUM`).
  func withWriterOutsideTransactions<T>(_ body: (StoreEngine) throws(StoreError) -> T) throws(StoreError) -> T {
    guard let writer else { throw .readOnly(path: path) }
    return try writer.withEngine(body)
  }

  /// Runs `body` on a reader outside any transaction, for what SQLite runs only there
  /// (`VACUUM INTO`); on the writer when the store has no readers (in memory).
  func withReaderOutsideTransactions<T>(_ body: (StoreEngine) throws(StoreError) -> T) throws(StoreError) -> T {
    if let readers { return try readers.withEngine(body) }
    guard let writer else { throw StoreError.readOnly(path: path) }
    return try writer.withEngine(body)
  }

  /// Runs `body` in one read transaction (one snapshot of the file) on a reader of its own.
  package func withReadTransaction<T>(_ body: (StoreEngine) throws(StoreError) -> T) throws(StoreError) -> T {
    if let readers {
      return try readers.withEngine { engine throws(StoreError) in
        try engine.read { () throws(StoreError) in try body(engine) }
      }
    }
    guard let writer else { throw StoreError.readOnly(path: path) }
    return try writer.withEngine { engine throws(StoreError) in
      try engine.read { () throws(StoreError) in try body(engine) }
    }
  }
}
