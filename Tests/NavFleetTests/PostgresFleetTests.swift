import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import PropertyBased
import Testing

@testable import NavFleet

/// The fleet's store on PostgreSQL holds what SQLite holds: the same uploads give the same
/// outcomes, heads, summaries, histories, states, verdicts and pages, byte for byte; two
/// collectors on one database never fork a session; tampering done with `psql` is found.
@Suite(.enabled(if: TestPostgres.runs, TestPostgres.skipReason))
struct PostgresFleetTests {
  static let interval = 5

  /// Uploads `batches` into a SQLite store and into PostgreSQL, and holds every answer and every
  /// read of the two to each other.
  func expectSameStores(_ sessions: [[AnyEvent]], batches: [[ArraySlice<UInt8>]]) async throws {
    let folder = try TemporaryFolder()
    let sqlite = try SessionStore(path: folder.path("d.sqlite"), options: StoreOptions(snapshotInterval: Self.interval))
    let postgres = try await PostgresTestFleet(snapshotInterval: Self.interval)
    // A second collector takes every other batch: its caches are cold, so it reads heads back.
    let other = try await postgres.another(snapshotInterval: Self.interval)
    for (index, batch) in batches.enumerated() {
      let expected = try await sqlite.ingest(batch)
      let collector = index % 2 == 0 ? postgres.fleet : other.fleet
      let got = try await collector.ingest(batch, app: postgres.app)
      #expect(got == expected, "batch \(index)")
    }
    let app = postgres.app
    let fleet = postgres.fleet
    for events in sessions {
      let id = events[0].session
      let summary = try await sqlite.summary(of: id)
      #expect(try await fleet.summary(of: id, app: app) == summary)
      let history = try await sqlite.history(of: id)
      #expect(try await fleet.history(of: id, app: app, from: 1, to: Int.max) == history)
      #expect(try await fleet.head(of: id, app: app) == SessionHead(seq: history.count, hash: history.last?.hash))
      for seq in 1...summary.eventCount {
        #expect(
          try await fleet.state(of: id, app: app, at: seq) == (try await sqlite.state(of: id, at: seq)), "seq \(seq)")
      }
      #expect(try await fleet.verify(id, app: app) == (try await sqlite.verify([id]))[0])
    }
    // Every table, in both formats, whole and filtered: the same bytes.
    let middle = Timestamp(millisecondsSince1970: 1_795_000_000_000 + 12_000)
    let filters = [
      ExportFilter(), ExportFilter(since: middle), ExportFilter(omitsPayloads: true),
      ExportFilter(session: sessions[0][0].session),
    ]
    for table in ExportTable.allCases {
      for format in [ExportFormat.csv, .jsonl] {
        for filter in filters where !(filter.omitsPayloads && table == .events && format == .jsonl) {
          let expected = try Self.exported(sqlite, table, format: format, filter: filter)
          var got: [UInt8] = []
          try await fleet.export(table, format: format, filter: filter, app: app) { got += $0 }
          #expect(
            got == expected,
            "\(table) \(format) \(filter): \(String(decoding: got.prefix(300), as: UTF8.self)) vs \(String(decoding: expected.prefix(300), as: UTF8.self))"
          )
        }
      }
    }
    for order in [SessionQuery.Order.id, .lastActivity] {
      var filters = SessionQuery()
      filters.order = order
      let request = SessionsPageRequest(filters: filters, screen: nil, failing: nil, limit: 7, omittingPayloads: false)
      let sqliteBackend = SQLiteBackend(
        fleet: try SQLiteFleet(path: folder.path("d.sqlite")), logger: .init(label: "t"))
      var expected = try await sqliteBackend.sessions(app: .default, request)
      var got = try await PostgresBackend(fleet: fleet).sessions(app: app, request)
      #expect(got.lines == expected.lines)
      // The next page, from the cursor.
      if let after = expected.resumeAfter {
        var next = request
        next.filters.after = (after.lastAt ?? Timestamp(millisecondsSince1970: 0), after.id)
        expected = try await sqliteBackend.sessions(app: .default, next)
        got = try await PostgresBackend(fleet: fleet).sessions(app: app, next)
        #expect(got.lines == expected.lines)
      }
    }
  }

  /// A SQLite store's export, as `navstore export` writes it.
  static func exported(_ store: SessionStore, _ table: ExportTable, format: ExportFormat, filter: ExportFilter) throws
    -> [UInt8]
  {
    var bytes: [UInt8] = []
    _ = try store.exportEncoded(table, format: format, filter: filter) { bytes += $0 }
    return bytes
  }

  @Test func randomSessionsGiveTheSameRowsAsSQLite() async throws {
    await checkProperty(count: 4, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let sessions = RichSessions.make(count: 12, using: &rng)
      var batches = try RichSessions.batches(sessions, using: &rng)
      // A resend of a few batches: duplicates on both.
      batches += batches.shuffled(using: &rng).prefix(3)
      try await expectSameStores(sessions, batches: batches)
    }
  }

  @Test func everyOutcomeOfTheContractIsTheSame() async throws {
    let home = AnyCoordinator.stack(stack("R+home"))
    var wrongHash = event("h", .start(home), seq: 1)
    wrongHash.hash = String(repeating: "0", count: 64)
    let first = [event("known", .start(home), seq: 1), event("other", .start(home), seq: 1)]
    var upload = try first.map { ArraySlice(try WireFormat.canonicalBytes($0)) }
    upload += try [
      event("a", .start(home), seq: 1), first[0], event("known", .pop(), seq: 2),
      event("b", .push(["screen": "x"]), seq: 1), event("c", .start(home), seq: 3),
      event("other", .start(.stack(stack("R+other"))), seq: 1), wrongHash, event("a", .pop(), seq: 2),
    ].map { ArraySlice(try WireFormat.canonicalBytes($0)) }
    upload.append(ArraySlice(#"{"session":"d","at":"2026-11-21T10:00:00.000Z","op":{"op":"fly"}}"#.utf8))
    upload.append(ArraySlice("   ".utf8))
    try await expectSameStores(
      [[first[0]], [first[1]], [event("a", .start(home), seq: 1)]], batches: [Array(upload.prefix(2)), upload])
  }

  /// Two collectors on one database take the same sessions' batches at once, each sent to either
  /// of them and some twice: the histories are exactly those one collector would hold.
  @Test func twoCollectorsNeverForkASession() async throws {
    var rng = SeededRandom(seed: 40)
    let sessions = RichSessions.make(count: 8, using: &rng)
    let one = try await PostgresTestFleet()
    let two = try await one.another()
    let app = one.app
    let collectors = [one.fleet, two.fleet]
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, events) in sessions.enumerated() {
        let lines = try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }
        // Two senders per session, racing: each sends the session in batches of 3 from where
        // the collector's answer says its head is, to one collector or the other.
        for sender in 0..<2 {
          group.addTask {
            var head = 0
            var round = index + sender
            while head < lines.count {
              let batch = Array(lines[head..<min(lines.count, head + 3)])
              let outcome = try await collectors[round % 2].ingest(batch, app: app)
              round += 1
              for line in outcome.lines {
                if case .rejected(let rejection) = line.outcome {
                  // Only a race may refuse a line: a gap behind the other sender's batch.
                  #expect(rejection.reason == .gap || rejection.reason == .conflict, "\(rejection)")
                }
              }
              head = outcome.heads[events[0].session]?.seq ?? head
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let folder = try TemporaryFolder()
    let reference = try SessionStore(path: folder.path("r.sqlite"))
    for events in sessions {
      _ = try await reference.ingest(try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) })
      let id = events[0].session
      #expect(
        try await one.fleet.history(of: id, app: app, from: 1, to: Int.max) == (try await reference.history(of: id)))
      #expect(try await two.fleet.verify(id, app: app).isIntact)
    }
  }

  /// Tampering done with `psql` (the append-only trigger switched off first, as an attacker with
  /// the database's password would) is named by `verify`, at the event.
  @Test func tamperingWithPsqlIsFoundAtTheEvent() async throws {
    var rng = SeededRandom(seed: 7)
    let sessions = RichSessions.make(count: 4, using: &rng).filter { $0.count >= 4 }
    try #require(sessions.count >= 2)
    let postgres = try await PostgresTestFleet(snapshotInterval: 100)
    let app = postgres.app
    for events in sessions {
      _ = try await postgres.fleet.ingest(try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }, app: app)
    }
    let (edited, deleted) = (sessions[0][0].session, sessions[1][0].session)
    let quoted = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
    try TestPostgres.psql(
      """
      ALTER TABLE events DISABLE TRIGGER events_are_append_only;
      UPDATE events SET cause = '{"tampered":true}' WHERE app = \(quoted(app.rawValue)) AND session_id = \(quoted(edited.rawValue)) AND seq = 2;
      DELETE FROM events WHERE app = \(quoted(app.rawValue)) AND session_id = \(quoted(deleted.rawValue)) AND seq = 3;
      ALTER TABLE events ENABLE TRIGGER events_are_append_only;
      """)
    let editedResult = try await postgres.fleet.verify(edited, app: app)
    #expect(editedResult.failure?.seq == 2)
    #expect(editedResult.failure?.problem == .hashMismatch)
    let deletedResult = try await postgres.fleet.verify(deleted, app: app)
    #expect(deletedResult.failure?.seq == 3)
  }

  /// Events stay as they were written: the database itself refuses to edit or delete one.
  @Test func theDatabaseRefusesToEditAnEvent() async throws {
    let postgres = try await PostgresTestFleet()
    let app = postgres.app
    _ = try await postgres.fleet.ingest(
      [ArraySlice(try WireFormat.canonicalBytes(event("kept", .start(.stack(stack("R+home"))), seq: 1)))], app: app)
    #expect(throws: (any Error).self) {
      try TestPostgres.psql("UPDATE events SET at = 0 WHERE app = '\(app.rawValue)'")
    }
    #expect(throws: (any Error).self) {
      try TestPostgres.psql("DELETE FROM events WHERE app = '\(app.rawValue)'")
    }
    #expect(try await postgres.fleet.history(of: sessionID("kept"), app: app, from: 1, to: 1).count == 1)
  }
}

/// Connections killed under the collector (`pg_terminate_backend`, as an operator or a failover
/// does) while it stores uploads: calls fail, are resent as a device resends them, and nothing
/// acknowledged is lost or stored twice.
@Suite(.enabled(if: TestPostgres.runs, TestPostgres.skipReason))
struct PostgresFaultTests {
  @Test func connectionsKilledMidTransactionLoseNothingAcknowledged() async throws {
    let url = try #require(TestPostgres.url, "NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no server")
    let name = "navstore-kill-" + UUID().uuidString.prefix(8).lowercased()
    let fleet = PostgresFleet(
      address: try PostgresAddress(url), connections: 4, operationTimeout: .seconds(5), applicationName: name)
    let pool = Task { await fleet.run() }
    defer { pool.cancel() }
    _ = try await fleet.migrate()
    let app = try AppName(TestPostgres.uniqueApp("kill"))
    try await fleet.createApp(app)
    var rng = SeededRandom(seed: 9)
    let sessions = RichSessions.make(count: 6, using: &rng)
    let batches = try RichSessions.batches(sessions, using: &rng)
    // The killer: every backend of this fleet, over and over, while the uploads go on.
    let killer = Task.detached {
      var kills = 0
      while !Task.isCancelled {
        let killed = try? TestPostgres.psql(
          "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)') k"
        )
        kills += Int(killed?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        try? await Task.sleep(for: .milliseconds(15))
      }
      return kills
    }
    var failures = 0
    var acknowledged: [SessionID: Int] = [:]
    for batch in batches {
      // A device resends a batch until it is answered.
      while true {
        do throws(FleetError) {
          let outcome = try await fleet.ingest(batch, app: app)
          #expect(outcome.rejected.isEmpty, "\(outcome.rejected)")
          for (session, head) in outcome.heads { acknowledged[session] = max(acknowledged[session] ?? 0, head.seq) }
          break
        } catch {
          #expect(error.isStorageFailure, "\(error)")
          failures += 1
          try await Task.sleep(for: .milliseconds(5))
        }
      }
    }
    killer.cancel()
    let kills = await killer.value
    #expect(kills > 0 && failures > 0, "the killer landed \(kills) kills and \(failures) failed calls")
    let folder = try TemporaryFolder()
    let reference = try SessionStore(path: folder.path("r.sqlite"))
    for events in sessions {
      _ = try await reference.ingest(try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) })
      let id = events[0].session
      let stored = try await fleet.history(of: id, app: app, from: 1, to: Int.max)
      #expect(stored == (try await reference.history(of: id)))
      #expect(stored.count >= acknowledged[id] ?? 0)
      #expect(try await fleet.verify(id, app: app).isIntact)
    }
  }
}
