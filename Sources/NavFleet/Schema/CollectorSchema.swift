import Foundation
import NavCore
import NavPersistence

/// The migrations of the collector's own tables, from `migrations/collector/`, embedded at build
/// time (the generated `EmbeddedMigrations` names the store's `Migration` type through this).
typealias Migration = NavPersistence.Migration

/// The collector's own tables (apps, tokens) in its main store file: made and migrated by the
/// collector alone, so a device's store never has them.
///
/// A collector's file from before they existed kept its apps and tokens in tables every store
/// had (schema 9 to 12); the store's schema 13 takes those out, and refuses to while they hold
/// rows. Opening such a file here first moves the rows into the collector's tables, in one
/// transaction, so nothing is lost and schema 13 can run.
enum CollectorSchema {
  /// The migrations of this build.
  static var migrations: [Migration] { EmbeddedMigrations.all }

  /// The newest version of the collector's tables this build knows.
  static var latestVersion: Int { migrations.last?.version ?? 0 }

  /// Opens the store at `path`, first moving a collector's apps and tokens out of the tables
  /// schema 13 removes when the file still has them.
  static func openStore(path: String, options: StoreOptions) throws(StoreError) -> SessionStore {
    do {
      return try SessionStore(path: path, options: options)
    } catch  where error.isCollectorTablesCheck && options.access == .readWrite {
      try moveLegacyTables(path: path, options: options)
      return try SessionStore(path: path, options: options)
    }
  }

  /// The version of the collector's tables in the file (0: none), refusing a newer one.
  static func version(of store: SessionStore) throws(FleetError) -> Int {
    let version = try FleetError.storing { () throws(StoreError) in
      try store.withReadTransaction { connection throws(SQLiteError) in try Self.version(of: connection) }
    }
    if version > latestVersion {
      throw .newerCollectorTables(path: store.path, found: version, supported: latestVersion)
    }
    return version
  }

  /// Brings the collector's tables of `store` to the newest version, one migration per
  /// transaction, each recorded in `collector_migrations` with it.
  static func migrate(_ store: SessionStore) throws(FleetError) {
    _ = try version(of: store)
    try FleetError.storing { () throws(StoreError) in
      try store.withConnectionOutsideTransactions { connection throws(SQLiteError) in try migrate(connection) }
    }
  }

  private static func migrate(_ connection: SQLiteConnection) throws(SQLiteError) {
    _ = try Migrator.apply(
      migrations, to: connection, ledger: "collector_migrations", now: Timestamp.now.millisecondsSince1970,
      version: version(of:))
  }

  private static func version(of connection: SQLiteConnection) throws(SQLiteError) -> Int {
    let hasTable = try connection.integer(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'collector_migrations'")
    guard hasTable == 1 else { return 0 }
    return Int(try connection.integer("SELECT coalesce(max(version), 0) FROM collector_migrations") ?? 0)
  }

  /// Moves the apps and tokens of a collector's file at schema 12 into the collector's tables,
  /// and empties the old ones, in one transaction.
  private static func moveLegacyTables(path: String, options: StoreOptions) throws(StoreError) {
    do throws(SQLiteError) {
      let connection = try SQLiteConnection(
        path: path, mode: .readWrite(create: false), busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
      try migrate(connection)
      try connection.immediateTransaction { () throws(SQLiteError) in
        let legacy = try connection.integer(
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('apps', 'tokens')")
        guard legacy == 2 else { return }
        try connection.execute(
          """
          INSERT INTO collector_apps (name, created_at) SELECT name, created_at FROM apps WHERE true
            ON CONFLICT DO NOTHING;
          INSERT INTO collector_tokens
            (id, app, role, secret_hash, created_at, revoked_at, label, expires_at, last_used_at)
            SELECT id, app, role, secret_hash, created_at, revoked_at, label, expires_at, last_used_at FROM tokens
            WHERE true ON CONFLICT DO NOTHING;
          DELETE FROM apps;
          DELETE FROM tokens;
          """)
      }
    } catch {
      throw StoreError.storage(error, path: path)
    }
  }
}
