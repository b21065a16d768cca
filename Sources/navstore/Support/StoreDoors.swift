import Foundation
import Logging
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence

// The one place a command's store is chosen: `--db` names a store file or a PostgreSQL database
// (`postgres://...`), and each door below opens the one it names. A command goes through a door
// and never asks which engine is behind it.

extension StoreLocation {
  /// Creates the store `--db` names, or migrates it to this build's schema: its schema version
  /// before (`nil` or 0 for none) and after, and the name to say it by.
  func initialize() async throws -> (before: Int?, after: Int, store: String) {
    guard let address = try postgresAddress() else {
      let path = resolvedPath
      let before = FileManager.default.fileExists(atPath: path) ? Self.schemaVersion(at: path) : nil
      let opened = try StoreOption.open(path: path, forWriting: true)
      return (before, try storeCall { () throws(StoreError) in try opened.schemaVersion() }, path)
    }
    let (before, after) = try await PostgresStore.with(address, schema: .asItIs) { fleet in
      try await fleetCall { () async throws(FleetError) in (try await fleet.schemaVersion(), try await fleet.migrate())
      }
    }
    return (before, after, address.description)
  }

  /// The schema version of an existing file, read without migrating it (0 for an empty one).
  private static func schemaVersion(at path: String) -> Int? {
    guard let connection = try? SQLiteConnection(path: path, mode: .readOnly) else { return nil }
    return (try? connection.integer("PRAGMA user_version")).flatMap { $0.map(Int.init) } ?? 0
  }

  /// Refuses a PostgreSQL address for a command that works on store files only, with the
  /// sentence that says what to run instead.
  func requireFile(elsewhere: String) throws(CLIError) {
    if try postgresAddress() != nil { throw CLIError("--db: \(elsewhere)") }
  }

  /// The PostgreSQL database `--db` names, when it names one (`postgres://...`); `nil` for a
  /// store file. Asked by the doors in this file alone.
  fileprivate func postgresAddress() throws(CLIError) -> PostgresAddress? {
    let given = resolvedPath
    guard PostgresAddress.isAddress(given) else { return nil }
    do {
      return try PostgresAddress(given)
    } catch {
      throw CLIError("--db: \(error.terminalMessage)")
    }
  }
}

extension StoreOption {
  /// Runs `body` with the sessions `--db` and `--app` name: a store file's (which must exist
  /// unless `writing`, which creates it), or a PostgreSQL database's at this build's schema,
  /// whose app must exist unless `makingApp`.
  func withSessions<T>(
    writing: Bool = false, makingApp: Bool = false, _ body: (any SessionSource) async throws -> T
  ) async throws -> T {
    guard let address = try location.postgresAddress() else {
      let isNew = !FileManager.default.fileExists(atPath: resolvedPath)
      return try await body(StoreFileSessions(store: try open(forWriting: writing), isNew: isNew))
    }
    let app = appName
    return try await PostgresStore.with(address, schema: .current, app: makingApp ? .made(app) : .existing(app)) {
      fleet in
      try await body(PostgresSessions(fleet: fleet, app: app))
    }
  }
}

extension StoreLocation {
  /// Runs `body` with the tokens of the store `--db` names: a collector's store file (which
  /// must exist unless `writing`, which creates it), or a PostgreSQL database at this build's
  /// schema.
  func withTokens<T>(writing: Bool, _ body: (any TokenKeeping) async throws -> T) async throws -> T {
    guard let address = try postgresAddress() else {
      return try await body(try StoreOption.openFleet(path: resolvedPath, forWriting: writing))
    }
    return try await PostgresStore.with(address, schema: .current) { fleet in try await body(fleet) }
  }
}

extension StoreLocation {
  /// Runs `body` with the collector's store `--db` names, which it serves until it returns: a
  /// collector's store file, or a PostgreSQL database (migrated, as every collector may do;
  /// they take turns), whose reads go to `readDatabase` (`--read-db`) or to the same database
  /// in a pool of their own.
  func withBackend(
    readDatabase: String?, connections: Int, logger: Logger, _ body: (any FleetBackend) async throws -> Void
  ) async throws {
    guard let database = try postgresAddress() else {
      let fleet = try StoreOption.openFleet(path: resolvedPath, forWriting: true)
      try Self.checkAppFiles(of: fleet)
      try await body(SQLiteBackend(fleet: fleet, logger: logger))
      return
    }
    let fleet = PostgresFleet(address: database, connections: connections, logger: logger)
    // The reads have a pool of their own: an export holds its connection for as long as it
    // streams, and exports in the one pool held every connection the uploads write with.
    let reads: PostgresFleet
    do throws(FleetError) {
      reads = PostgresFleet(
        address: try readDatabase.map { address throws(FleetError) in try PostgresAddress(address) } ?? database,
        connections: connections, applicationName: "navstore-reads", logger: logger)
    } catch {
      throw CLIError("--read-db: \(error.terminalMessage)")
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await fleet.run() }
      group.addTask { await reads.run() }
      defer { group.cancelAll() }
      _ = try await fleetCall { () async throws(FleetError) in
        try await fleet.probe()
        try await reads.probe()
        return try await fleet.migrate()
      }
      let readsAt = readDatabase == nil ? "the same, a pool of its own" : "\(reads.address)"
      logger.info("store", metadata: ["database": "\(database)", "reads": "\(readsAt)"])
      try await body(PostgresBackend(fleet: fleet, reads: reads))
    }
  }

  /// Refuses to start when an app the store lists (one that has tokens) has no store file:
  /// serving it would make a new, empty one that answers for sessions it does not have.
  private static func checkAppFiles(of fleet: SQLiteFleet) throws {
    let apps = try fleetCall { () throws(FleetError) in try fleet.apps() }
    let missing = apps.filter { !FileManager.default.fileExists(atPath: fleet.path(of: $0)) }
    guard missing.isEmpty else {
      let files = missing.map { "'\($0)' (\(fleet.path(of: $0)))" }.joined(separator: ", ")
      throw CLIError(
        "the store lists app\(missing.count == 1 ? "" : "s") \(files) whose file is missing; put the file back "
          + "(from a backup), or the collector would answer for its sessions with an empty store")
    }
  }
}
