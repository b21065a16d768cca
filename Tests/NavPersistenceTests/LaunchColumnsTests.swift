import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// What a session's launch did goes in with its `start` and comes out where support and
/// analysts look for sessions: the listing and its filters, the sessions export, `verify`, and
/// stores written before the row kept it.
@Suite struct LaunchColumnsTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  static let update = LaunchRecord(
    outcome: .restored,
    dropped: [
      .init(path: .top, index: 1, screen: "list", routes: 2, error: "ScreenV2 has no case named 'list'"),
      .init(path: .top, index: 0, screen: "home", routes: 1, error: "ScreenV2 has no case named 'home'"),
    ])

  /// A seed session, and four launches after it: a restore that dropped routes, a fresh start,
  /// a declined restore, and a start that says nothing of its launch.
  func storeWithLaunches() throws -> SessionStore {
    let store = try SessionStore(path: folder.path("app.sqlite"))
    try store.append(event("seed", .start(.stack(stack("R+home", "list", "detail")))))
    let seed = SessionLink(session: sessionID("seed"), seq: 1)
    let starts: [(String, AnyOperation)] = [
      ("v2", .start(.stack(stack("R+home")), restoredFrom: seed, context: nil, launch: Self.update)),
      (
        "late",
        .start(
          .stack(stack("R+home")), restoredFrom: nil, context: nil,
          launch: .init(outcome: .startedFresh, reason: "tooOld"))
      ),
      (
        "link",
        .start(
          .stack(stack("R+home", "offer")), restoredFrom: nil, context: nil,
          launch: .init(outcome: .declined, reason: "notificationOpened"))
      ),
      ("plain", .start(.stack(stack("R+home")))),
    ]
    for (offset, (session, start)) in starts.enumerated() {
      try store.append(event(session, start, offset: Int64(offset + 1) * 1_000))
    }
    return store
  }

  func listed(_ store: SessionStore, _ adjust: (inout SessionQuery) -> Void = { _ in }) throws -> [String] {
    var query = SessionQuery()
    adjust(&query)
    var ids: [String] = []
    try store.forEachSession(matching: query) {
      ids.append($0.id.rawValue)
      return true
    }
    return ids
  }

  @Test func theLaunchIsInTheListingItsFiltersAndTheExport() throws {
    let store = try storeWithLaunches()
    let v2 = try store.summary(of: sessionID("v2"))
    #expect((v2.launch, v2.launchReason, v2.droppedRoutes) == (.restored, nil, 3))
    let link = try store.summary(of: sessionID("link"))
    #expect((link.launch, link.launchReason, link.droppedRoutes) == (.declined, "notificationOpened", 0))
    let plain = try store.summary(of: sessionID("plain"))
    #expect(plain.launch == nil && plain.droppedRoutes == 0)

    #expect(try listed(store) { $0.droppedRoutes = true } == ["v2"])
    #expect(try listed(store) { $0.droppedRoutes = false } == ["late", "link", "plain", "seed"])
    #expect(try listed(store) { $0.launch = .declined } == ["link"])
    #expect(try listed(store) { $0.launch = .startedFresh } == ["late"])
    #expect(
      try listed(store) {
        $0.launch = .restored
        $0.droppedRoutes = false
      } == [])

    var rows: [[ExportValue]] = []
    try store.export(.sessions, filter: ExportFilter()) { rows.append($0.values) }
    let columns = ExportTable.sessions.columns
    let launchColumns = (columns.firstIndex(of: "launch") ?? 0)..<((columns.firstIndex(of: "launch") ?? 0) + 3)
    #expect(
      Array(columns[launchColumns]) == ["launch", "launch_reason", "dropped_routes"]
        && columns[..<launchColumns.lowerBound].last == "phase", "after the columns before them")
    func launch(of session: String) -> [ExportValue] {
      Array((rows.first { $0.first == .text(session) } ?? [])[launchColumns])
    }
    #expect(launch(of: "v2") == [.text("restored"), .null, .integer(3)])
    #expect(launch(of: "late") == [.text("fresh"), .text("tooOld"), .integer(0)])
    #expect(launch(of: "link") == [.text("declined"), .text("notificationOpened"), .integer(0)])
    #expect(launch(of: "plain") == [.null, .null, .integer(0)])
    #expect(try store.verify().allSatisfy(\.isIntact))

    // Without payloads, a declined restore's reason (the app's own words) is left out; the
    // store's reasons stay.
    var withoutPayloads: [[ExportValue]] = []
    try store.export(.sessions, filter: ExportFilter(omitsPayloads: true)) { withoutPayloads.append($0.values) }
    func privately(_ session: String) -> [ExportValue] {
      Array((withoutPayloads.first { $0.first == .text(session) } ?? [])[launchColumns])
    }
    #expect(privately("link") == [.text("declined"), .null, .integer(0)])
    #expect(privately("late") == [.text("fresh"), .text("tooOld"), .integer(0)])
  }

  @Test func launchColumnsEditedByHandAreFoundByVerify() throws {
    let path = folder.path("app.sqlite")
    _ = try storeWithLaunches()
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute("UPDATE sessions SET dropped_routes = 0 WHERE id = 'v2'")
    try connection.execute("UPDATE sessions SET launch = 'restored' WHERE id = 'late'")
    try connection.execute("UPDATE sessions SET launch_reason = 'other' WHERE id = 'link'")
    try connection.execute("UPDATE sessions SET launch = 'fresh' WHERE id = 'plain'")
    let results = try SessionStore(path: path).verify()
    let failing = results.filter { !$0.isIntact }
    #expect(failing.map(\.session.rawValue) == ["late", "link", "plain", "v2"])
    #expect(failing.allSatisfy { $0.failure?.problem == .launchDiffers })
  }

  /// A store upgraded to the schema that keeps the launch in the row lists the launches its
  /// starts already held, and verifies.
  @Test func aStoreOfTheSchemaBeforeListsTheLaunchesItAlreadyHeld() throws {
    let path = folder.path("app.sqlite")
    _ = try storeWithLaunches()
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(schema16Undone)
    try connection.execute(
      """
      ALTER TABLE sessions DROP COLUMN launch;
      ALTER TABLE sessions DROP COLUMN launch_reason;
      ALTER TABLE sessions DROP COLUMN dropped_routes;
      DELETE FROM schema_migrations WHERE version >= 15;
      PRAGMA user_version = 14;
      """)
    // A start a hand edit left unreadable does not stop the store from opening.
    try connection.execute(
      """
      DROP TRIGGER events_are_append_only_update;
      UPDATE events SET op = '{not json' WHERE session_id = 'plain' AND seq = 1;
      UPDATE events SET op = json_set(op, '$.launch.reason', json_array('x', 3))
        WHERE session_id = 'late' AND seq = 1;
      UPDATE events SET op = json_set(op, '$.launch.dropped', json_array('x', 5, json_object('routes', '7')))
        WHERE session_id = 'link' AND seq = 1;
      """)
    let store = try SessionStore(path: path)
    #expect(try store.schemaVersion() == SessionStore.latestSchemaVersion)
    #expect(try listed(store) { $0.droppedRoutes = true } == ["v2"])
    #expect(try store.summary(of: sessionID("v2")).droppedRoutes == 3)
    #expect(try listed(store) { $0.launch = .declined } == ["link"])
    let link = try store.summary(of: sessionID("link"))
    #expect((link.launchReason, link.droppedRoutes) == ("notificationOpened", 0), "no route counted from a bad drop")
    #expect(try store.summary(of: sessionID("late")).launchReason == nil, "a reason that is not text is none")
    let results = try store.verify()
    #expect(results.filter { !$0.isIntact }.map(\.session.rawValue) == ["late", "link", "plain"], "the edited starts")
  }

  /// For any launch a start records, the row says what the start does: the outcome, the
  /// reason, and the routes its drops add up to.
  @Test func theRowSaysWhatAnyStartsLaunchSays() async throws {
    let routes = Gen.int(in: 1...50).array(of: 0...4)
    let store = try SessionStore(path: folder.path("any.sqlite"))
    try await store.write { try $0.append(event("seed", .start(.stack(stack("R+home"))))) }
    await checkProperty(
      count: 60, input: Gen.int(in: 0..<LaunchRecord.Outcome.allCases.count), Gen.bool, routes
    ) { outcomeIndex, hasReason, routes in
      let outcome = LaunchRecord.Outcome.allCases[outcomeIndex]
      let restores = outcome == .restored || outcome == .restoredRoots
      let dropped =
        restores
        ? routes.enumerated().map { index, count in
          DroppedRoute(path: .top, index: index, screen: "s\(index)", routes: count, error: "gone")
        } : []
      let record = LaunchRecord(outcome: outcome, reason: hasReason ? "because" : nil, dropped: dropped)
      let session = "s-" + UUID().uuidString
      let link = restores ? SessionLink(session: sessionID("seed"), seq: 1) : nil
      do {
        try await store.write {
          try $0.append(
            event(session, .start(.stack(stack("R+home")), restoredFrom: link, context: nil, launch: record)))
        }
        let summary = try await store.read { try $0.summary(of: sessionID(session)) }
        #expect(summary.launch == outcome && summary.launchReason == record.reason)
        #expect(summary.droppedRoutes == routes.reduce(0, +) * (restores ? 1 : 0))
        let verified = try await store.read { try $0.verify([sessionID(session)]) }
        #expect(verified.allSatisfy { $0.isIntact })
      } catch {
        Issue.record("\(record): \(error)")
      }
    }
  }
}
