import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
@_spi(Internals) import NavCore
import NavPersistence
import NavTestSupport
import PostgresNIO
import Testing

@testable import NavCollector
@testable import NavFleet

/// Pulls over HTTP (`GET /v1/export/{table}?after=CURSOR`): each answer names the cursor it
/// answers to, a session uploaded after a pull is in the next one whatever its devices' dates,
/// and no row comes twice, on a SQLite store and on PostgreSQL shared by two collectors.
@Suite(.serialized) struct IncrementalPullTests {
  /// A collector as a test client reaches it, with its app's tokens.
  struct Side {
    let client: any TestClientProtocol
    let ingest: String
    let read: String
    /// Waits until what was written is below the cursor a pull hands out: at once on SQLite; on
    /// PostgreSQL, once the transactions that began before it (the other tests' too) are over.
    var settle: @Sendable () async throws -> Void = {}
  }

  /// Waits until `fleet`'s cursor passes every transaction begun so far (at most a minute).
  static func settled(_ fleet: PostgresFleet) async throws {
    let fence = try await fleet.database {
      let rows = try await fleet.client.query(
        "SELECT pg_current_xact_id()::text::bigint", logger: Logger(label: "fence"))
      for try await id in rows.decode(Int64.self) { return id }
      return Int64.max
    }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while try await fleet.exportCursor() < fence, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
  }

  static let home = #"{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}"#

  /// A session's lines: its start at `at` (restoring `restoring` past its end, where no state
  /// is stored to check it against), then a push of each screen a second apart.
  static func session(_ id: String, at: Timestamp, restoring: String? = nil, pushing screens: [String]) -> String {
    let start =
      restoring.map {
        #"{"op":"start","restoredFrom":{"session":"\#($0)","seq":1000},"state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}"#
      } ?? home
    var lines = [#"{"session":"\#(id)","seq":1,"at":"\#(at.rfc3339)","op":\#(start)}"#]
    for (index, screen) in screens.enumerated() {
      let time = Timestamp(millisecondsSince1970: at.millisecondsSince1970 + Int64(index + 1) * 1_000)
      lines.append(
        #"{"session":"\#(id)","seq":\#(index + 2),"at":"\#(time.rfc3339)","op":{"op":"push","screen":"\#(screen)"}}"#
      )
    }
    return lines.joined(separator: "\n")
  }

  static func upload(_ body: String, to side: Side) async throws {
    let response = try await side.client.execute(
      uri: "/v1/events", method: .post,
      headers: [.authorization: "Bearer \(side.ingest)", .contentType: "application/x-ndjson"],
      body: ByteBuffer(string: body))
    #expect(response.status == .ok, "\(String(buffer: response.body))")
  }

  /// A pull of `table` as CSV: its rows (without the header) and the cursor it answers to.
  static func pull(_ table: String, after: Int64?, from side: Side) async throws -> (rows: [String], cursor: Int64) {
    let query = after.map { "&after=\($0)" } ?? ""
    let response = try await side.client.execute(
      uri: "/v1/export/\(table)?format=csv\(query)", method: .get, headers: [.authorization: "Bearer \(side.read)"])
    #expect(response.status == .ok)
    let cursor = try #require(response.headers[.navStoreCursor].flatMap { Int64($0) }, "the answer names its cursor")
    let lines = String(buffer: response.body).components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(lines.first?.contains(",received") == true)
    return (Array(lines.dropFirst()), cursor)
  }

  /// Uploads through `first`, pulls through `second`, uploads a session of two days before
  /// through `second`, pulls again from the cursor through `first`.
  static func lateUploadIsInTheNextPull(_ first: Side, _ second: Side) async throws {
    let now = Timestamp.now
    try await upload(session("fresh", at: now, pushing: ["cart"]), to: first)
    try await first.settle()
    let views = try await pull("screen-views", after: nil, from: second)
    let events = try await pull("events", after: nil, from: second)
    #expect(views.rows.count == 2 && views.rows.allSatisfy { $0.hasPrefix("fresh,") })
    #expect(events.rows.count == 2)
    let twoDaysBefore = Timestamp(millisecondsSince1970: now.millisecondsSince1970 - 2 * 86_400_000)
    try await upload(session("late", at: twoDaysBefore, pushing: ["list", "item"]), to: second)
    try await second.settle()
    // Pulled by the devices' time, the late session would be missed: it is older than any row
    // pulled before.
    let nextViews = try await pull("screen-views", after: views.cursor, from: first)
    #expect(nextViews.cursor > views.cursor)
    #expect(nextViews.rows.count == 3 && nextViews.rows.allSatisfy { $0.hasPrefix("late,") })
    let nextEvents = try await pull("events", after: events.cursor, from: first)
    #expect(nextEvents.rows.count == 3 && nextEvents.rows.allSatisfy { $0.hasPrefix("late,") })
    let nextTransitions = try await pull("transitions", after: nil, from: first)
    #expect(nextTransitions.rows.count == 5)
    // Nothing new: nothing again.
    #expect(try await pull("screen-views", after: nextViews.cursor, from: second).rows.isEmpty)
    #expect(try await pull("events", after: nextEvents.cursor, from: second).rows.isEmpty)
    // A cursor that is not a number from 0 is refused, and so is one ahead of the store's (a
    // store restored or replaced since the pull that handed it out).
    for bad in ["-1", "x", "", "\(Int64.max)"] {
      let response = try await first.client.execute(
        uri: "/v1/export/events?format=csv&after=\(bad)", method: .get,
        headers: [.authorization: "Bearer \(first.read)"])
      #expect(response.status == .badRequest, "after=\(bad)")
    }
  }

  /// The last session of a chain of restores arrives first, then the first, then the middle,
  /// which moves the last one's journey: the pull after it hands out the last one's views and
  /// session row again, with the new journey, and not its transitions.
  static func movedJourneyIsInTheNextPull(_ side: Side) async throws {
    let now = Timestamp.now
    try await upload(session("end", at: now, restoring: "middle", pushing: ["cart"]), to: side)
    try await upload(session("first", at: now, pushing: []), to: side)
    try await side.settle()
    func journeys(_ rows: [String], of session: String) -> [String] {
      // `journey_id` is the views' second column from the end, the sessions' second.
      rows.filter { $0.hasPrefix(session + ",") }.compactMap { row in
        let cells = row.split(separator: ",", omittingEmptySubsequences: false)
        return cells.count > 2 ? String(cells[cells.count - 2]) : nil
      }
    }
    let views = try await pull("screen-views", after: nil, from: side)
    let sessions = try await pull("sessions", after: nil, from: side)
    let transitions = try await pull("transitions", after: nil, from: side)
    #expect(journeys(views.rows, of: "end") == ["middle", "middle"], "\(views.rows)")
    #expect(journeys(sessions.rows, of: "end") == ["middle"], "\(sessions.rows)")
    try await upload(session("middle", at: now, restoring: "first", pushing: []), to: side)
    try await side.settle()
    let nextViews = try await pull("screen-views", after: views.cursor, from: side)
    #expect(journeys(nextViews.rows, of: "end") == ["first", "first"], "the views come again: \(nextViews.rows)")
    #expect(journeys(nextViews.rows, of: "middle") == ["first"])
    let nextSessions = try await pull("sessions", after: sessions.cursor, from: side)
    #expect(journeys(nextSessions.rows, of: "end") == ["first"], "the row comes again: \(nextSessions.rows)")
    let nextTransitions = try await pull("transitions", after: transitions.cursor, from: side)
    #expect(nextTransitions.rows.allSatisfy { $0.hasPrefix("middle,") }, "transitions carry no journey")
    #expect(try await pull("screen-views", after: nextViews.cursor, from: side).rows.isEmpty)
  }

  /// A SQLite collector of one app, with a token of each role, for `body`.
  static func onSQLite(_ body: @Sendable (Side) async throws -> Void) async throws {
    let folder = try TemporaryFolder()
    let fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    let ingest = try fleet.createToken(app: AppName("shop"), role: .ingest).text
    let read = try fleet.createToken(app: AppName("shop"), role: .read).text
    try await Application(router: Collector.router(fleet: fleet)).test(.router) { client in
      try await body(Side(client: client, ingest: ingest, read: read))
    }
  }

  @Test func aLateUploadIsInTheNextPullOnSQLite() async throws {
    try await Self.onSQLite { side in try await Self.lateUploadIsInTheNextPull(side, side) }
  }

  @Test func aMovedJourneyIsInTheNextPullOnSQLite() async throws {
    try await Self.onSQLite { side in try await Self.movedJourneyIsInTheNextPull(side) }
  }

  @Test(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
  func aMovedJourneyIsInTheNextPullOnPostgreSQL() async throws {
    let (fleet, pool, _, ingest, read) = try await Self.collector("journeys")
    defer { pool.cancel() }
    try await Application(router: Collector.router(backend: PostgresBackend(fleet: fleet))).test(.router) { client in
      try await Self.movedJourneyIsInTheNextPull(
        Side(client: client, ingest: ingest, read: read, settle: { try await Self.settled(fleet) }))
    }
  }

  /// Two collectors on one database: uploads through either, pulls through either.
  @Test(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
  func aLateUploadIsInTheNextPullWithTwoCollectorsOnOnePostgreSQL() async throws {
    let url = try #require(TestPostgres.url)
    let fleets = try (0..<2).map { _ in
      PostgresFleet(
        address: try PostgresAddress(url), connections: 2, operationTimeout: TestPostgres.patientOperationTimeout)
    }
    let pools = fleets.map { fleet in Task { await fleet.run() } }
    defer { for pool in pools { pool.cancel() } }
    _ = try await fleets[0].migrate()
    let app = try AppName(TestPostgres.uniqueApp("pulls"))
    let ingest = try await fleets[0].createToken(app: app, role: .ingest).text
    let read = try await fleets[1].createToken(app: app, role: .read).text
    try await Application(router: Collector.router(backend: PostgresBackend(fleet: fleets[0]))).test(.router) { one in
      try await Application(router: Collector.router(backend: PostgresBackend(fleet: fleets[1]))).test(.router) {
        two in
        let (first, second) = (fleets[0], fleets[1])
        try await Self.lateUploadIsInTheNextPull(
          Side(client: one, ingest: ingest, read: read, settle: { try await Self.settled(first) }),
          Side(client: two, ingest: ingest, read: read, settle: { try await Self.settled(second) }))
      }
    }
  }

  /// A collector on the tests' PostgreSQL server, its pool running, with an app of its own and
  /// its ingest and read tokens.
  static func collector(_ prefix: String) async throws -> (
    fleet: PostgresFleet, pool: Task<Void, Never>, app: AppName, ingest: String, read: String
  ) {
    let url = try #require(TestPostgres.url)
    let fleet = PostgresFleet(
      address: try PostgresAddress(url), connections: 3, operationTimeout: TestPostgres.patientOperationTimeout)
    let pool = Task { await fleet.run() }
    _ = try await fleet.migrate()
    let app = try AppName(TestPostgres.uniqueApp(prefix))
    let ingest = try await fleet.createToken(app: app, role: .ingest).text
    let read = try await fleet.createToken(app: app, role: .read).text
    return (fleet, pool, app, ingest, read)
  }

  /// A dump restored into another server keeps its rows' transaction ids, beyond what the new
  /// server has given: pulls hand those rows out rather than cut them as too new.
  @Test(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
  func rowsNumberedByAnotherServerAreHandedOutNotLost() async throws {
    let (fleet, pool, app, ingest, read) = try await Self.collector("moved")
    defer { pool.cancel() }
    try await Application(router: Collector.router(backend: PostgresBackend(fleet: fleet))).test(.router) { client in
      let side = Side(client: client, ingest: ingest, read: read, settle: { try await Self.settled(fleet) })
      try await Self.upload(Self.session("moved", at: Timestamp.now, pushing: ["cart"]), to: side)
      try await side.settle()
      // As a dump from a server whose transaction ids ran far ahead of this one's leaves them
      // (the append-only trigger stands aside, as a restore's COPY never meets it).
      let quoted = "'" + app.rawValue + "'"
      try TestPostgres.psql(
        """
        SET session_replication_role = replica;
        UPDATE events SET received = 900000000000 WHERE app = \(quoted);
        UPDATE sessions SET received = 900000000000 WHERE app = \(quoted);
        """)
      let all = try await Self.pull("events", after: nil, from: side)
      #expect(all.rows.count == 2 && all.cursor < 900_000_000_000, "a full export keeps them")
      let views = try await Self.pull("screen-views", after: nil, from: side)
      #expect(views.rows.count == 2)
    }
  }

  /// The classic hole: a transaction that took its number before another committed may commit
  /// after a pull saw the other. While one is running, a pull hands out a cursor below it, and
  /// what committed above it waits for the next pull.
  @Test(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
  func aPullNeverHandsOutACursorAboveATransactionStillRunning() async throws {
    let (fleet, pool, _, ingest, read) = try await Self.collector("hole")
    defer { pool.cancel() }
    try await Application(router: Collector.router(backend: PostgresBackend(fleet: fleet))).test(.router) { client in
      let side = Side(client: client, ingest: ingest, read: read)
      let before = try await Self.pull("events", after: nil, from: side)
      let logger = Logger(label: "hole-test")
      try await fleet.client.withConnection { held in
        try await held.query("BEGIN", logger: logger)
        var running: Int64 = 0
        for try await id in try await held.query("SELECT pg_current_xact_id()::text::bigint", logger: logger)
          .decode(Int64.self)
        {
          running = id
        }
        try await Self.upload(Self.session("above", at: Timestamp.now, pushing: []), to: side)
        let during = try await Self.pull("events", after: before.cursor, from: side)
        #expect(during.cursor < running, "the cursor stays below the transaction still running")
        #expect(during.rows.isEmpty, "what committed above it waits")
        let views = try await Self.pull("screen-views", after: before.cursor, from: side)
        #expect(views.rows.isEmpty, "a session's events above the cursor are left to the next pull, views and all")
        try await held.query("COMMIT", logger: logger)
        try await Self.settled(fleet)
        let after = try await Self.pull("events", after: during.cursor, from: side)
        #expect(after.cursor > running)
        #expect(after.rows.count == 1 && after.rows.allSatisfy { $0.hasPrefix("above,") })
      }
    }
  }
}
