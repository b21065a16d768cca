import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// A collector's file from schema 9 to 12 kept its apps and tokens in tables every store had.
/// Opened by the collector, they move to the collector's own tables and the old ones go; opened
/// by anything else first, the store refuses to migrate rather than drop them.
@Suite struct LegacyCollectorTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  /// A schema-12 collector file at `path`: a session of the default app, the app `shop` and a
  /// token for it (made by a collector of this build elsewhere and copied in, so it is real);
  /// the token's text.
  func legacyCollector(at path: String) throws -> String {
    try SessionStore(path: path).append(event("s", .start(.stack(stack("R+home")))))
    let donor = try SQLiteFleet(path: folder.path("donor.sqlite"))
    let made = try donor.createToken(app: AppName("shop"), role: .ingest, label: "ios")
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(schema16Undone)
    try connection.execute(
      """
      CREATE TABLE apps (name TEXT NOT NULL PRIMARY KEY, created_at INTEGER NOT NULL) STRICT, WITHOUT ROWID;
      CREATE TABLE tokens (
        id TEXT NOT NULL PRIMARY KEY, app TEXT NOT NULL, role TEXT NOT NULL CHECK (role IN ('ingest', 'read')),
        secret_hash BLOB NOT NULL CHECK (length(secret_hash) = 32), created_at INTEGER NOT NULL, revoked_at INTEGER,
        label TEXT, expires_at INTEGER, last_used_at INTEGER) STRICT, WITHOUT ROWID;
      INSERT INTO apps VALUES ('shop', 1795000000000);
      ATTACH DATABASE '\(folder.path("donor.sqlite"))' AS donor;
      INSERT INTO tokens SELECT id, app, role, secret_hash, created_at, revoked_at, label, expires_at, last_used_at
        FROM donor.collector_tokens;
      DETACH DATABASE donor;
      ALTER TABLE sessions DROP COLUMN dropped_routes;
      ALTER TABLE sessions DROP COLUMN launch_reason;
      ALTER TABLE sessions DROP COLUMN launch;
      DELETE FROM schema_migrations WHERE version >= 13;
      PRAGMA user_version = 12;
      """)
    return made.text
  }

  func tables(_ path: String) throws -> [String] {
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    let statement = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    var names: [String] = []
    while try statement.step() { names.append(statement.text(0)) }
    return names
  }

  @Test func theCollectorMovesItsTokensAndAppsAndTheOldTablesGo() throws {
    let path = folder.path("collector.sqlite")
    let text = try legacyCollector(at: path)
    let fleet = try SQLiteFleet(path: path)
    #expect(try fleet.authenticate(text)?.app == AppName("shop"))
    #expect(try fleet.tokens().map(\.label) == ["ios"])
    #expect(try fleet.apps() == [.default, AppName("shop")])
    #expect(try fleet.main.schemaVersion() == SessionStore.latestSchemaVersion)
    #expect(try fleet.main.summary(of: sessionID("s")).eventCount == 1)
    let names = try tables(path)
    #expect(!names.contains("apps") && !names.contains("tokens"), "\(names)")
    #expect(names.contains("collector_tokens") && names.contains("collector_apps"))
  }

  @Test func anyOtherOpenerLeavesTheFileAtSchema12WithItsTokens() throws {
    let path = folder.path("collector.sqlite")
    let text = try legacyCollector(at: path)
    let refusal = #expect(throws: StoreError.self) { try SessionStore(path: path) }
    #expect(refusal?.isCollectorTablesCheck == true, "\(String(describing: refusal))")
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    #expect(try connection.integer("PRAGMA user_version") == 12)
    #expect(try connection.integer("SELECT count(*) FROM tokens") == 1)
    // And the collector, after it, still finds the token.
    #expect(try SQLiteFleet(path: path).authenticate(text) != nil)
  }

  @Test func theCommandLinesOpeningMovesThemToo() throws {
    let path = folder.path("collector.sqlite")
    let text = try legacyCollector(at: path)
    let store = try SQLiteFleet.openStore(path: path)
    #expect(try store.schemaVersion() == SessionStore.latestSchemaVersion)
    #expect(try SQLiteFleet(path: path).authenticate(text) != nil)
  }
}
