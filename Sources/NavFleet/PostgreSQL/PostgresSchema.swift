#if Collector
import Foundation
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO

/// The fleet's schema in PostgreSQL: `migrations/postgresql/`, applied in order, each once, in
/// one transaction, its version noted in `navstore_migrations`. Collectors starting together
/// take turns (an advisory lock), so none applies a migration twice.
enum PostgresSchema {
  /// The migrations this build knows.
  static var migrations: [Migration] { PostgreSQLMigrations.all }
  /// The newest version this build knows.
  static var supported: Int { migrations.last?.version ?? 0 }
  /// The advisory lock migrations take (any constant no other program uses).
  static let migrationLock: Int64 = 7_356_152_906_231_844_410

  /// Applies the migrations the database lacks; returns its version after. A database written
  /// by a newer NavStore is left untouched.
  static func migrate(_ fleet: PostgresFleet) async throws(FleetError) -> Int {
    let logger = fleet.logger
    let address = fleet.address.description
    return try await fleet.transaction { connection in
      try await connection.run("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
      try await connection.run(
        """
        CREATE TABLE IF NOT EXISTS navstore_migrations (
          version integer NOT NULL PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)
        """, logger: logger)
      let current = try await version(on: connection, logger: logger)
      guard current <= supported else {
        throw FleetError.newerDatabaseSchema(address: address, found: current, supported: supported)
      }
      for migration in migrations where migration.version > current {
        for statement in statements(of: migration.sql) {
          try await connection.run(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        let now = Timestamp.now.millisecondsSince1970
        try await connection.run(
          """
          INSERT INTO navstore_migrations (version, name, applied_at)
            VALUES (\(Int32(migration.version)), \(migration.name), \(now))
          """, logger: logger)
      }
      return max(current, supported)
    }
  }

  /// The database's version, without changing it (0: no NavStore schema).
  static func version(of fleet: PostgresFleet) async throws(FleetError) -> Int {
    let logger = fleet.logger
    return try await fleet.database {
      try await fleet.client.withConnection { connection in
        let exists = try await connection.query(
          "SELECT to_regclass('navstore_migrations') IS NOT NULL", logger: logger
        ).decode(Bool.self).first { _ in true }
        guard exists == true else { return 0 }
        return try await version(on: connection, logger: logger)
      }
    }
  }

  private static func version(on connection: PostgresConnection, logger: Logger) async throws -> Int {
    let rows = try await connection.query("SELECT coalesce(max(version), 0) FROM navstore_migrations", logger: logger)
    for try await version in rows.decode(Int32.self) { return Int(version) }
    return 0
  }

  /// The statements of a migration file, split at each `;` that ends one: not inside a quoted
  /// string, a quoted name, a dollar-quoted body or a comment. (The server takes one statement
  /// per query with parameters.)
  static func statements(of sql: String) -> [String] {
    let text = Array(sql.unicodeScalars)
    var statements: [String] = []
    var current = String.UnicodeScalarView()
    var index = 0
    func flush() {
      let statement = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
      if !statement.isEmpty, !isOnlyComments(statement) { statements.append(statement) }
      current = String.UnicodeScalarView()
    }
    while index < text.count {
      let scalar = text[index]
      switch scalar {
      case "-" where index + 1 < text.count && text[index + 1] == "-":
        while index < text.count, text[index] != "\n" {
          current.append(text[index])
          index += 1
        }
        continue
      case "'", "\"":
        current.append(scalar)
        index += 1
        while index < text.count {
          current.append(text[index])
          index += 1
          if text[index - 1] == scalar { break }
        }
        continue
      case "$":
        // A dollar quote: $tag$ ... $tag$ (the tag may be empty).
        var end = index + 1
        while end < text.count, text[end] == "_" || text[end].properties.isAlphabetic || ("0"..."9").contains(text[end])
        {
          end += 1
        }
        guard end < text.count, text[end] == "$" else { break }
        let tag = Array(text[index...end])
        current.append(contentsOf: tag)
        index = end + 1
        while index < text.count {
          if text[index] == "$", index + tag.count <= text.count, Array(text[index..<(index + tag.count)]) == tag {
            current.append(contentsOf: tag)
            index += tag.count
            break
          }
          current.append(text[index])
          index += 1
        }
        continue
      case ";":
        flush()
        index += 1
        continue
      default:
        break
      }
      current.append(scalar)
      index += 1
    }
    flush()
    return statements
  }

  private static func isOnlyComments(_ statement: String) -> Bool {
    statement.split(separator: "\n").allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("--") }
  }
}

extension PostgresFleet {
  /// Creates the fleet's schema in the database, or migrates an older one; returns its version.
  package func migrate() async throws(FleetError) -> Int { try await PostgresSchema.migrate(self) }

  /// The database's schema version, without changing it (0: none).
  package func schemaVersion() async throws(FleetError) -> Int { try await PostgresSchema.version(of: self) }

  /// Throws unless the database has this build's schema (`navstore init` makes or migrates it).
  package func requireSchema() async throws(FleetError) {
    let version = try await schemaVersion()
    if version > PostgresSchema.supported {
      throw .newerDatabaseSchema(address: address.description, found: version, supported: PostgresSchema.supported)
    }
    if version < PostgresSchema.supported {
      throw .database(
        address: address.description,
        reason: version == 0
          ? "it has no NavStore schema; run 'navstore init --db \(address)' first"
          : "its schema is version \(version), older than this build's \(PostgresSchema.supported); run 'navstore init --db \(address)'"
      )
    }
  }
}
#endif
