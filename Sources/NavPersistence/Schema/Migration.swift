/// One step of the schema: `migrations/NNNN_name.sql`, embedded in the binary at build time.
package struct Migration: Hashable, Sendable {
  /// The number in the file name; migrations apply in this order.
  package let version: Int
  /// The description in the file name.
  package let name: String
  /// The file's SQL.
  package let sql: String

  /// A migration, as the build embeds it.
  package init(version: Int, name: String, sql: String) {
    self.version = version
    self.name = name
    self.sql = sql
  }
}

/// Brings a database to the newest schema this build knows, one migration per transaction.
///
/// Each migration and its record in `schema_migrations` commit together, so a crash leaves the
/// database at some version, never between two. `PRAGMA user_version` mirrors the version, so a
/// newer database is recognized, and refused untouched, before anything is written.
package enum Migrator {
  /// The migrations of this build, from `migrations/`.
  static var migrations: [Migration] { EmbeddedMigrations.all }

  /// The newest schema version this build can use.
  static var latestVersion: Int { migrations.last?.version ?? 0 }

  /// The schema version of an open database (0 for an empty one).
  static func version(of connection: SQLiteConnection) throws(SQLiteError) -> Int {
    Int(try connection.integer("PRAGMA user_version") ?? 0)
  }

  /// Applies the migrations the database lacks; returns the version it ends at.
  @discardableResult
  static func migrate(_ connection: SQLiteConnection, now: Int64) throws(SQLiteError) -> Int {
    try apply(
      migrations, to: connection, ledger: "schema_migrations", now: now, version: version(of:),
      afterEach: { connection, migration throws(SQLiteError) in
        try connection.execute("PRAGMA user_version = \(migration.version)")
      })
  }

  /// Applies the `migrations` newer than `version` says the database is, one per transaction,
  /// each recorded in the table `ledger` (made in the first migration's transaction, so no
  /// other opener ever sees a half-made database) and followed by `afterEach` in the same
  /// transaction; returns the version it ends at. The store's schema and the collector's own
  /// tables (NavFleet) are migrated by this one loop.
  package static func apply(
    _ migrations: [Migration], to connection: SQLiteConnection, ledger: String, now: Int64,
    version: (SQLiteConnection) throws(SQLiteError) -> Int,
    afterEach: (SQLiteConnection, Migration) throws(SQLiteError) -> Void = { _, _ in }
  ) throws(SQLiteError) -> Int {
    var current = try version(connection)
    for migration in migrations where migration.version > current {
      try connection.immediateTransaction { () throws(SQLiteError) in
        // Another process may have migrated between our read and this transaction.
        guard try version(connection) < migration.version else { return }
        try connection.execute(
          "CREATE TABLE IF NOT EXISTS \(ledger) (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT"
        )
        try connection.execute(migration.sql)
        try connection.statement("INSERT INTO \(ledger) (version, name, applied_at) VALUES (?, ?, ?)")
          .execute([.int(migration.version), .text(migration.name), .integer(now)])
        try afterEach(connection, migration)
      }
      current = migration.version
    }
    return current
  }
}
