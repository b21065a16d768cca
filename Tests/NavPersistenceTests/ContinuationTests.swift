import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import NavTools
import Testing

/// Sessions that begin by restoring another (`start`'s `restoredFrom`), and finding the session
/// an app restores at launch.
@Suite struct ContinuationTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  static let link = SessionLink(session: sessionID("launch-1"), seq: 3)

  @Test func theLinkIsListedAndVerified() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    try store.append(event("launch-1", .start(.stack(stack("R+home")))))
    try store.append(event("launch-2", .start(.stack(stack("R+home", "↑list")), restoredFrom: Self.link), offset: 10))
    let sessions = try store.sessions()
    #expect(sessions.map(\.restoredFrom) == [nil, Self.link])
    #expect(try store.history(of: sessionID("launch-2")).first?.operation.restoredFrom == Self.link)
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func verifyFindsLinkColumnsThatDisagreeWithTheStartEvent() throws {
    let path = folder.path("s.sqlite")
    let store = try SessionStore(path: path)
    try store.append(event("launch-2", .start(.stack(stack("R+home")), restoredFrom: Self.link)))
    try store.append(event("launch-3", .start(.stack(stack("R+home")))))
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute("UPDATE sessions SET restored_from_seq = 2 WHERE id = 'launch-2'")
    try connection.execute(
      "UPDATE sessions SET restored_from_session = 'x', restored_from_seq = 1 WHERE id = 'launch-3'")
    // The schema keeps the two columns together.
    #expect(throws: SQLiteError.self) {
      try connection.execute("UPDATE sessions SET restored_from_session = NULL WHERE id = 'launch-2'")
    }
    let results = try store.verify()
    #expect(results.map(\.failure?.seq) == [1, 1])
    #expect(results.allSatisfy { $0.failure?.problem == .restoredFromDiffers })
  }

  @Test func theLatestSessionIsTheOneWithTheNewestLastEvent() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    #expect(try store.latestSession() == nil)
    try store.append(event("b", .start(.stack(stack("R+home"))), offset: 100))
    try store.append(event("a", .start(.stack(stack("R+home"))), offset: 200))
    try store.append(event("c", .start(.stack(stack("R+home"))), offset: 50))
    #expect(try store.latestSession()?.id == sessionID("a"))
    // An older session that moves on becomes the latest.
    try store.append(event("c", .push("list"), offset: 300))
    #expect(try store.latestSession()?.id == sessionID("c"))
    #expect(try store.latestSession()?.eventCount == 2)
    // Ties go to the greatest id, so the answer does not depend on insertion order.
    try store.append(event("b", .push("list"), offset: 300))
    #expect(try store.latestSession()?.id == sessionID("c"))
    try store.append(event("d", .start(.stack(stack("R+home"))), offset: 300))
    #expect(try store.latestSession()?.id == sessionID("d"))
  }

  /// The query is `StoreEngine.latestSessionSummary`'s, minus its column list: keep the two
  /// in step.
  @Test func theLatestSessionQueryUsesTheIndex() throws {
    let path = folder.path("s.sqlite")
    _ = try SessionStore(path: path)
    let connection = try SQLiteConnection(path: path, mode: .readOnly)
    let plan = try connection.statement(
      "EXPLAIN QUERY PLAN SELECT id FROM sessions WHERE event_count > 0 ORDER BY last_at DESC, id DESC LIMIT 1")
    var details: [String] = []
    while try plan.step() { details.append(plan.text(3)) }
    #expect(details.contains { $0.contains("sessions_by_last_at") }, "\(details)")
    #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
  }

  /// A store written before schema 2 (no link columns, no index, and none of the later
  /// schemas' tables) migrates on open, keeps every event, and verifies.
  @Test func aSchemaOneStoreMigrates() throws {
    let path = folder.path("old.sqlite")
    do {
      let store = try SessionStore(path: path)
      try store.append(event("s", .start(.stack(stack("R+home")))))
      try store.append(event("s", .push("list"), offset: 1))
      // The clock went back, then on: schema 5's columns are computed from these times.
      try store.append(event("s", .push("detail"), offset: -500))
      try store.append(event("s", .pop(), offset: 2_000))
    }
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(schema16Undone)
    try connection.execute(
      """
      DROP TRIGGER events_are_append_only_delete;
      CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
      BEGIN
        SELECT RAISE(ABORT, 'events are append-only');
      END;
      DROP TABLE device_key;
      DROP TABLE upload_spending;
      DROP TABLE upload_progress;
      DROP TABLE session_endings;
      DROP TABLE launches;
      DROP TABLE tombstones;
      DROP TABLE checkpoint_sessions;
      DROP TABLE checkpoints;
      DROP TABLE store_identity;
      DROP INDEX sessions_by_last_at;
      ALTER TABLE sessions DROP COLUMN dropped_routes;
      ALTER TABLE sessions DROP COLUMN launch_reason;
      ALTER TABLE sessions DROP COLUMN launch;
      ALTER TABLE sessions DROP COLUMN foreground_ms;
      ALTER TABLE sessions DROP COLUMN phase;
      ALTER TABLE sessions DROP COLUMN context;
      ALTER TABLE sessions DROP COLUMN clock_jumps;
      ALTER TABLE sessions DROP COLUMN duration_ms;
      ALTER TABLE sessions DROP COLUMN restored_from_seq;
      ALTER TABLE sessions DROP COLUMN restored_from_session;
      DELETE FROM schema_migrations WHERE version >= 2;
      PRAGMA user_version = 1;
      """)
    let before = try tableDump(path)
    #expect(!before.contains("restored_from"))
    let store = try SessionStore(path: path)
    #expect(try store.schemaVersion() == SessionStore.latestSchemaVersion)
    #expect(try store.verify().allSatisfy(\.isIntact))
    #expect(try store.latestSession()?.eventCount == 4)
    #expect(try store.sessions().first.map { [$0.clockJumps, Int($0.durationMilliseconds)] } == [1, 1 + 2_500])
    #expect(try store.sessions().first?.restoredFrom == nil)
    #expect(try store.identity().count == 32, "the migration made the store an identity")
  }
}
