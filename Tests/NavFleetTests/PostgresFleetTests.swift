import Foundation
import NavContract
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

@testable import NavFleet

/// The fleet's store on PostgreSQL holds what SQLite holds: the same uploads give the same
/// outcomes, heads, summaries, histories, states, verdicts and pages, byte for byte; two
/// collectors on one database never fork a session; tampering done with `psql` is found.
@Suite(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
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
      let summary = try await sqlite.read { try $0.summary(of: id) }
      // The same session, but for the order of arrival, which each engine numbers its own way.
      var shared = try await fleet.summary(of: id, app: app)
      shared.received = summary.received
      #expect(shared == summary)
      let history = try await sqlite.read { try $0.history(of: id) }
      #expect(try await fleet.history(of: id, app: app, from: 1, to: Int.max) == history)
      #expect(try await fleet.head(of: id, app: app) == SessionHead(seq: history.count, hash: history.last?.hash))
      for seq in 1...summary.eventCount {
        #expect(
          try await fleet.state(of: id, app: app, at: seq) == (try await sqlite.read { try $0.state(of: id, at: seq) }),
          "seq \(seq)")
      }
      #expect(try await fleet.verify(id, app: app) == (try await sqlite.read { try $0.verify([id]) })[0])
    }
    // Every table, in every format, whole and filtered: the same bytes.
    let middle = Timestamp(millisecondsSince1970: 1_795_000_000_000 + 12_000)
    let filters = [
      ExportFilter(), ExportFilter(since: middle), ExportFilter(omitsPayloads: true),
      ExportFilter(session: sessions[0][0].session), ExportFilter(until: middle),
      ExportFilter(since: middle, appVersion: "2.3"), ExportFilter(deviceModel: "iPhone15,6"),
    ]
    for table in ExportTable.allCases {
      for format in ExportFormat.allCases where format.writes(table) {
        for filter in filters where !(filter.omitsPayloads && table == .events && format == .jsonl) {
          let expected = try Self.exported(sqlite, table, format: format, filter: filter)
          var got: [UInt8] = []
          try await fleet.export(table, format: format, filter: filter, app: app) { got += $0 }
          let (shared, local) = (String(decoding: got, as: UTF8.self), String(decoding: expected, as: UTF8.self))
          #expect(
            maskingReceived(shared) == maskingReceived(local),
            "\(table) \(format) \(filter): \(shared.prefix(300)) vs \(local.prefix(300))")
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
      #expect(got.lines.map(maskingReceived) == expected.lines.map(maskingReceived))
      // The next page, from the cursor.
      if let after = expected.resumeAfter {
        var next = request
        next.filters.after = (after.lastAt ?? Timestamp(millisecondsSince1970: 0), after.id)
        expected = try await sqliteBackend.sessions(app: .default, next)
        got = try await PostgresBackend(fleet: fleet).sessions(app: app, next)
        #expect(got.lines.map(maskingReceived) == expected.lines.map(maskingReceived))
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

  /// Text a text format must escape (a backslash, a tab, a newline, a carriage return, and
  /// `\N`, COPY's NULL) in ids, screens, causes and contexts, and an empty string as a cause
  /// (its JSON is `""`, not the none the arrays say with empty text), is stored and read back as
  /// sent.
  @Test func awkwardTextIsStoredAsSent() async throws {
    let awkward = "a\\b\tc\nd\re\\N \"f\" \u{e9}\u{1F600}"
    let id = "esc\\N\\x"
    var start = event(id, .start(.stack([.root(.string(awkward), withNavigation: true)])), seq: 1)
    start.cause = .object(["note": .string(awkward)])
    var push = event(id, .push(.string("\\N")), offset: 10, seq: 2)
    push.cause = .string("\t")
    var pop = event(id, .pop(), offset: 20, seq: 3)
    pop.cause = .string("")
    let session = [start, push, pop]
    let lines = try session.map { ArraySlice(try WireFormat.canonicalBytes($0)) }
    try await expectSameStores([session], batches: [Array(lines.prefix(2)), Array(lines.suffix(1))])
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

  /// A history's refusal reaches the collector as the same `FleetError` from either engine
  /// (`history`, never `store` or `database`), so its HTTP answer and the command line's
  /// message are one.
  @Test func refusalsAreTheSameFromEitherEngine() async throws {
    let folder = try TemporaryFolder()
    let sqlite = SQLiteBackend(fleet: try SQLiteFleet(path: folder.path("c.sqlite")), logger: .init(label: "t"))
    let postgres = try await PostgresTestFleet()
    let shared = PostgresBackend(fleet: postgres.fleet)
    let line = ArraySlice(try WireFormat.canonicalBytes(event("known", .start(.stack(stack("R+home"))), seq: 1)))
    let now = Timestamp(millisecondsSince1970: Int64.max / 2)
    _ = try await sqlite.ingest([line], app: .default, signedBy: nil, datedUpTo: now)
    _ = try await shared.ingest([line], app: postgres.app, signedBy: nil, datedUpTo: now)
    let calls: [(String, @Sendable (any FleetBackend, AppName) async throws(FleetError) -> Void)] = [
      (
        "summary",
        { backend, app throws(FleetError) in _ = try await backend.summary(of: sessionID("nobody"), app: app) }
      ),
      (
        "state",
        { backend, app throws(FleetError) in _ = try await backend.state(of: sessionID("known"), app: app, at: 9) }
      ),
      (
        "report",
        { backend, app throws(FleetError) in
          _ = try await backend.report(of: sessionID("known"), app: app, focus: 9, omitsPayloads: false)
        }
      ),
    ]
    for (name, call) in calls {
      var failures: [FleetError] = []
      for (backend, app) in [(sqlite as any FleetBackend, AppName.default), (shared, postgres.app)] {
        do throws(FleetError) {
          try await call(backend, app)
        } catch {
          failures.append(error)
        }
      }
      #expect(failures.count == 2, "\(name)")
      #expect(failures.first == failures.last, "\(name): \(failures)")
      #expect(failures.allSatisfy { $0.history != nil && !$0.isStorageFailure }, "\(name): \(failures)")
    }
  }

  /// The same tampering, done with SQL to a store file and to the database, is found alike by
  /// verify: one procedure (`HistoryAudit`) reads either engine's rows. `ROWS` is the session's
  /// rows in each.
  @Test(arguments: [
    "UPDATE events SET op = replace(op, 'screen4', 'screen5') WHERE ROWS AND seq = 6",
    "UPDATE events SET at = at + 1 WHERE ROWS AND seq = 3",
    "UPDATE events SET origin = 'user' WHERE ROWS AND seq = 2",
    "DELETE FROM events WHERE ROWS AND seq = 7",
    "DELETE FROM events WHERE ROWS AND seq = 10",
    "DELETE FROM events WHERE ROWS AND seq = 1",
  ])
  func tamperingIsFoundAlikeOnBothEngines(sql: String) async throws {
    let folder = try TemporaryFolder()
    let path = folder.path("t.sqlite")
    let store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: 4))
    let postgres = try await PostgresTestFleet(snapshotInterval: 4)
    var events = [event("s", .start(.stack(stack("R+home"))), seq: 1)]
    for index in 0..<9 {
      events.append(event("s", .push(.string("screen\(index)")), offset: Int64(index + 1), seq: index + 2))
    }
    let lines = try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }
    _ = try await store.ingest(lines)
    _ = try await postgres.fleet.ingest(lines, app: postgres.app)
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      "DROP TRIGGER IF EXISTS events_are_append_only_update; DROP TRIGGER IF EXISTS events_are_append_only_delete;")
    try connection.execute(sql.replacingOccurrences(of: "ROWS", with: "session_id = 's'"))
    try TestPostgres.psql(
      """
      ALTER TABLE events DISABLE TRIGGER events_are_append_only;
      \(sql.replacingOccurrences(of: "ROWS", with: "app = '\(postgres.app)' AND session_id = 's'"));
      ALTER TABLE events ENABLE TRIGGER events_are_append_only;
      """)
    let expected = try #require(try await SessionStore(path: path).read { try $0.verify() }.first)
    let got = try await postgres.fleet.verify(sessionID("s"), app: postgres.app)
    #expect(!expected.isIntact, "\(sql)")
    #expect(got == expected, "\(sql)")
  }

  @Test func linesFromTheFutureAreRefusedAsOnSQLite() async throws {
    let (upload, latest) = try IngestTests.linesFromTheFuture()
    let folder = try TemporaryFolder()
    let sqlite = try SessionStore(path: folder.path("f.sqlite"))
    let postgres = try await PostgresTestFleet()
    let expected = try await sqlite.ingest(upload, datedUpTo: latest)
    #expect(try await postgres.fleet.ingest(upload, app: postgres.app, datedUpTo: latest) == expected)
    #expect(expected.rejected.map(\.rejection.reason) == [.fromTheFuture, .gap, .fromTheFuture])
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
        try await one.fleet.history(of: id, app: app, from: 1, to: Int.max)
          == (try await reference.read { try $0.history(of: id) }))
      #expect(try await two.fleet.verify(id, app: app).isIntact)
    }
  }

  /// 48 uploads at once, each its own sessions' lines in a batch of 20: they share
  /// transactions (group commit), yet each gets its own outcome and heads, and every session
  /// verifies.
  @Test func uploadsAtOnceShareTransactionsAndEachIsTakenWhole() async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    let uploads = (0..<48).map { SessionLines.bytes(prefix: "g\($0)", sessions: 2, events: 10) }
    let outcomes = try await withThrowingTaskGroup(of: (Int, UploadOutcome).self) { group in
      for (number, lines) in uploads.enumerated() {
        group.addTask { (number, try await fleet.ingest(lines, app: app)) }
      }
      var outcomes: [Int: UploadOutcome] = [:]
      for try await (number, outcome) in group { outcomes[number] = outcome }
      return outcomes
    }
    for number in uploads.indices {
      let outcome = try #require(outcomes[number])
      #expect(outcome.accepted == 20 && outcome.rejected.isEmpty, "upload \(number)")
      #expect(Set(outcome.heads.keys.map(\.rawValue)) == ["g\(number)-0", "g\(number)-1"])
      #expect(outcome.heads.values.allSatisfy { $0.seq == 10 })
      for session in outcome.heads.keys {
        #expect(try await fleet.verify(session, app: app).isIntact, "\(session)")
        #expect(try await fleet.head(of: session, app: app) == outcome.heads[session])
      }
    }
    let transactions = fleet.groups.withLock { $0[app]?.attempts ?? 0 }
    #expect(transactions < 48, "\(transactions) transactions for 48 uploads at once")
  }

  /// The same session sent by six uploads at once, which may be written by groups running side
  /// by side: its lines are stored once, by whichever upload is written first.
  @Test func aSessionSentSixTimesAtOnceIsStoredOnce() async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    let lines = SessionLines.bytes(prefix: "same", sessions: 1, events: 25)
    let outcomes = try await withThrowingTaskGroup(of: UploadOutcome.self) { group in
      for _ in 0..<6 { group.addTask { try await fleet.ingest(lines, app: app) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.map(\.accepted).sorted() == [0, 0, 0, 0, 0, 25])
    #expect(outcomes.allSatisfy { $0.accepted + $0.duplicates == 25 && $0.rejected.isEmpty })
    let session = try #require(outcomes.first?.heads.keys.first)
    #expect(try await fleet.verify(session, app: app).isIntact)
    #expect(try await fleet.head(of: session, app: app).seq == 25)
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

  /// The migration that gave the rows their launch columns reads them from the starts already
  /// stored: on what the collector wrote, it gives what the collector writes now.
  @Test func theLaunchColumnsMigrationReadsStoredStartsAsIngestWritesThem() async throws {
    var rng = SeededRandom(seed: 5)
    // And a start whose screen holds U+0000, which PostgreSQL's `jsonb` refuses to read.
    let nul = event(
      "nul",
      .start(
        .stack([.root(.string("a\u{0}b"), withNavigation: true)]), restoredFrom: nil, context: nil,
        launch: LaunchRecord(outcome: .declined, reason: "link")))
    let sessions = RichSessions.make(count: 12, using: &rng) + [[nul]]
    let postgres = try await PostgresTestFleet(snapshotInterval: 100)
    let app = postgres.app
    for events in sessions {
      _ = try await postgres.fleet.ingest(try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }, app: app)
    }
    var written: [SessionSummary] = []
    for events in sessions { written.append(try await postgres.fleet.summary(of: events[0].session, app: app)) }
    #expect(written.contains { $0.droppedRoutes > 0 } && written.contains { $0.launch == .startedFresh })
    let migration = try #require(PostgresSchema.migrations.first { $0.name.contains("launch_outcome") })
    let backfill = try #require(migration.sql.range(of: "UPDATE sessions SET"))
    let quoted = "'" + app.rawValue.replacingOccurrences(of: "'", with: "''") + "'"
    try TestPostgres.psql(
      """
      UPDATE sessions SET launch = NULL, launch_reason = NULL, dropped_routes = 0 WHERE app = \(quoted);
      \(migration.sql[backfill.lowerBound...])
      """)
    for (events, before) in zip(sessions, written) {
      let after = try await postgres.fleet.summary(of: events[0].session, app: app)
      #expect(after == before, "\(before.id)")
    }
  }

  /// A reordered pair is named by `verify`; a tail cut under a checkpoint, with the session's
  /// row fixed to match (a chain that verifies), is named by the audit against the checkpoint;
  /// a session forgotten through the store is an erasure on record, not tampering.
  @Test func aReorderedPairAndATailCutUnderACheckpointAreFound() async throws {
    var rng = SeededRandom(seed: 11)
    let sessions = RichSessions.make(count: 6, using: &rng).filter { $0.count >= 6 }
    try #require(sessions.count >= 3)
    let postgres = try await PostgresTestFleet(snapshotInterval: 100)
    let (fleet, app) = (postgres.fleet, postgres.app)
    for events in sessions {
      _ = try await fleet.ingest(try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }, app: app)
    }
    let signer = try NoteSigner(name: "auditor")
    let note = try await fleet.checkpoint(app: app, signedBy: signer, at: Timestamp(millisecondsSince1970: 1_000))
    let intact = try await fleet.audit(app: app, against: note, key: signer.verifier)
    #expect(intact.sessions == sessions.count && intact.problems == 0)
    #expect(intact.checkpoint.eventCount == sessions.map(\.count).reduce(0, +))

    let (reordered, cut, forgotten) = (sessions[0][0].session, sessions[1][0].session, sessions[2][0].session)
    let keep = 4
    // The row the cut session would have had with only its first events: what a careful
    // tamperer writes, so that the chain and the row agree.
    let other = try await PostgresTestFleet(app: nil)
    _ = try await other.fleet.ingest(
      try sessions[1].prefix(keep).map { ArraySlice(try WireFormat.canonicalBytes($0)) }, app: other.app)
    let columns = "event_count, head_hash, first_at, last_at, depth, clock_jumps, duration_ms, foreground_ms, phase"
    let rows = { (session: SessionID) in "app = '\(app.rawValue)' AND session_id = '\(session.rawValue)'" }
    try TestPostgres.psql(
      """
      ALTER TABLE events DISABLE TRIGGER events_are_append_only;
      UPDATE events SET seq = 1000000 WHERE \(rows(reordered)) AND seq = 2;
      UPDATE events SET seq = 2 WHERE \(rows(reordered)) AND seq = 3;
      UPDATE events SET seq = 3 WHERE \(rows(reordered)) AND seq = 1000000;
      DELETE FROM snapshots WHERE \(rows(cut)) AND seq > \(keep);
      DELETE FROM events WHERE \(rows(cut)) AND seq > \(keep);
      UPDATE sessions SET (\(columns)) =
          (SELECT \(columns) FROM sessions WHERE app = '\(other.app.rawValue)' AND id = '\(cut.rawValue)')
        WHERE app = '\(app.rawValue)' AND id = '\(cut.rawValue)';
      ALTER TABLE events ENABLE TRIGGER events_are_append_only;
      """)
    _ = try await fleet.forget([forgotten], app: app, at: Timestamp(millisecondsSince1970: 2_000))

    let swapped = try await fleet.verify(reordered, app: app)
    #expect(swapped.failure?.seq == 2)
    #expect(try await fleet.verify(cut, app: app).isIntact)
    let findings = Protected<[CheckpointFinding]>([])
    let audit = try await fleet.audit(app: app, against: note, key: signer.verifier) { finding in
      findings.withLock { $0.append(finding) }
    }
    #expect(audit.problems == 1 && audit.forgotten == 1)
    #expect(audit.firstProblem?.entry.session == cut)
    #expect(audit.firstProblem?.status == .truncated(events: keep))
    #expect(findings.withLock { $0 }.count == sessions.count)
    #expect(
      findings.withLock { $0 }.first { $0.entry.session == forgotten }?.status
        == .forgotten(at: Timestamp(millisecondsSince1970: 2_000)))

    // Another app's checkpoint, or one the database never recorded, is not this app's to audit.
    await #expect(throws: FleetError.self) {
      try await fleet.audit(app: other.app, against: note, key: signer.verifier)
    }
    let forged = try SignedNote(
      text: Checkpoint(
        origin: (try Checkpoint(text: note.text)).origin, sessionCount: 1, rootHash: Array(repeating: 7, count: 32),
        eventCount: 1, time: .now
      ).text, signedBy: signer)
    await #expect(throws: FleetError.self) { try await fleet.audit(app: app, against: forged, key: signer.verifier) }
  }

  /// Pruning while uploads extend the very sessions it prunes: both take the sessions' locks in
  /// one order, so neither fails on a deadlock, and each session is either pruned as it was
  /// (its start alone) or kept with everything it was sent.
  @Test func pruningBesideUploadsToItsSessionsNeverDeadlocks() async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    // The starts are at offset 0 and the pushes at 10: a session a push reached is kept.
    let cutoff = Timestamp(millisecondsSince1970: event("any", .push("x"), offset: 5).at.millisecondsSince1970)
    for round in 0..<6 {
      let names = (0..<16).map { "r\(round)-s\($0)" }
      let starts = try names.map {
        ArraySlice(try WireFormat.canonicalBytes(event($0, .start(.stack(stack("R+home"))), seq: 1)))
      }
      _ = try await fleet.ingest(starts, app: app)
      async let pruning = fleet.prune(app: app, before: cutoff)
      try await withThrowingTaskGroup(of: Void.self) { group in
        // Against the pruning's order, one upload per session.
        for name in names.reversed() {
          group.addTask {
            let push = try WireFormat.canonicalBytes(event(name, .push("detail"), offset: 10, seq: 2))
            _ = try await fleet.ingest([ArraySlice(push)], app: app)
          }
        }
        try await group.waitForAll()
      }
      let tombstones = try await pruning.tombstones
      for name in names {
        let id = sessionID(name)
        if let tombstone = tombstones.first(where: { $0.session == id }) {
          #expect(tombstone.lastSeq == 1)
        } else {
          #expect(try await fleet.history(of: id, app: app, from: 1, to: Int.max).count == 2)
        }
      }
    }
  }

  /// A pruning of more sessions than one transaction takes goes on, transaction after
  /// transaction, until none is left: every old session forgotten once, each transaction's
  /// count reported as it commits, a full last round followed by an empty one, a session still
  /// in use kept whole, and the tombstones in id order, as a store file gives them.
  @Test func aPruningLargerThanOneTransactionForgetsEveryOldSession() async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    let cutoff = Timestamp(millisecondsSince1970: event("any", .push("x"), offset: 5).at.millisecondsSince1970)
    let old = (0..<12).map { "old-\($0)" }
    let kept = ["kept-a", "kept-b"]
    let starts = try (old + kept).map {
      ArraySlice(try WireFormat.canonicalBytes(event($0, .start(.stack(stack("R+home"))), seq: 1)))
    }
    _ = try await fleet.ingest(starts, app: app)
    let pushes = try kept.map {
      ArraySlice(try WireFormat.canonicalBytes(event($0, .push("detail"), offset: 10, seq: 2)))
    }
    _ = try await fleet.ingest(pushes, app: app)

    var reported: [Int] = []
    let tombstones = try await fleet.prune(app: app, before: cutoff, batch: 3) { reported.append($0) }.tombstones

    let idOrder = old.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(sessionID)
    #expect(tombstones.map(\.session) == idOrder)
    #expect(reported == [3, 6, 9, 12])
    #expect(tombstones.allSatisfy { $0.lastSeq == 1 })
    #expect(try await fleet.tombstones(app: app).map(\.session) == idOrder)
    #expect(try await fleet.sessions(app: app, lastBefore: cutoff).isEmpty)
    for name in kept {
      #expect(try await fleet.history(of: sessionID(name), app: app, from: 1, to: Int.max).count == 2)
    }
    #expect(try await fleet.prune(app: app, before: cutoff, batch: 3).tombstones.isEmpty)
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
///
/// Not `.waitsOnProcesses`: a test on those shared threads waits behind other suites' long
/// process waits; their own blocking work goes to a thread of its own instead.
@Suite(.enabled(if: TestPostgres.runs, TestPostgres.skipReason))
struct PostgresFaultTests {
  @Test func connectionsKilledMidTransactionLoseNothingAcknowledged() async throws {
    let url = try #require(TestPostgres.url, "NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no server")
    let name = "navstore-kill-" + UUID().uuidString.prefix(8).lowercased()
    let fleet = PostgresFleet(
      address: try PostgresAddress(url), connections: 4, operationTimeout: .seconds(10), applicationName: name)
    let pool = Task { await fleet.run() }
    defer { pool.cancel() }
    // The deadline is short: a call on a killed connection may never be answered (the client
    // loses it), and costs its deadline. The calls outside the killing are tried again while a
    // busy run holds their work past it.
    _ = try await Self.tried { try await fleet.migrate() }
    let app = try AppName(TestPostgres.uniqueApp("kill"))
    try await Self.tried { try await fleet.createApp(app) }
    var rng = SeededRandom(seed: 9)
    let sessions = RichSessions.make(count: 20, using: &rng)
    let batches = try RichSessions.batches(sessions, using: &rng)
    // The killer: every backend of this fleet, every 30 ms, while the uploads go on.
    let killer = Task.detached {
      var kills = 0
      while !Task.isCancelled {
        let killed = try? await onAThreadOfItsOwn {
          try TestPostgres.psql(
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)') k"
          )
        }
        kills += Int(killed?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        try? await Task.sleep(for: .milliseconds(30))
      }
      return kills
    }
    var failures = 0
    var acknowledged: [SessionID: Int] = [:]
    // The whole upload, then again as resends (duplicates), until calls have failed under the
    // killer: a round is quick, and a kill lands between calls as often as inside one.
    for _ in 0..<20 where failures < 3 {
      for batch in batches {
        // A device resends a batch until it is answered.
        for attempt in 1... {
          try #require(attempt < 500, "a batch was never answered")
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
    }
    killer.cancel()
    let kills = await killer.value
    #expect(kills > 0 && failures > 0, "the killer landed \(kills) kills and \(failures) failed calls")
    let folder = try TemporaryFolder()
    let reference = try SessionStore(path: folder.path("r.sqlite"))
    for events in sessions {
      _ = try await reference.ingest(try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) })
      let id = events[0].session
      let stored = try await Self.tried { try await fleet.history(of: id, app: app, from: 1, to: Int.max) }
      #expect(stored == (try await reference.read { try $0.history(of: id) }))
      #expect(stored.count >= acknowledged[id] ?? 0)
      #expect(try await Self.tried { try await fleet.verify(id, app: app) }.isIntact)
    }
  }

  /// The database stopped while uploads come, then started again: the calls meanwhile fail as
  /// the store's failure (a 503 at the collector), and the same fleet stores again by itself
  /// once the database is back, with nothing acknowledged lost. A cluster of its own, so the
  /// other tests' database stays up.
  @Test func aDatabaseStoppedAndStartedAgainIsServedAgainByItself() async throws {
    // Below Linux's ephemeral ports (32768 and up): between the stop and the start, a client's
    // connection elsewhere in the suite could otherwise be given the cluster's port.
    let cluster = try ThrowawayCluster(port: Int.random(in: 21_000..<29_000))
    defer { cluster.remove() }
    let address = try await onAThreadOfItsOwn { try cluster.start() }
    let fleet = PostgresFleet(address: try PostgresAddress(address), connections: 2, operationTimeout: .seconds(10))
    let pool = Task { await fleet.run() }
    defer { pool.cancel() }
    // The deadline is short, so that the stopped database costs a call 10 s rather than the
    // patient fixtures' minutes; the calls outside the stop are tried again while a busy run
    // holds their work past it (a retried upload is stored once).
    _ = try await Self.tried { try await fleet.migrate() }
    var rng = SeededRandom(seed: 3)
    let events = RichSessions.make(count: 1, using: &rng)[0]
    let lines = try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }
    let half = lines.count / 2
    let first = try await Self.tried { try await fleet.ingest(Array(lines[..<half]), app: .default) }
    #expect(first.heads[events[0].session]?.seq == half)
    try await onAThreadOfItsOwn { try cluster.halt() }
    await #expect(throws: FleetError.self) { try await fleet.ingest(Array(lines[half...]), app: .default) }
    _ = try await onAThreadOfItsOwn { try cluster.start() }
    // Back by itself: the next calls succeed within seconds, with no restart of the fleet.
    let stored = try await Self.tried(times: 60) { try await fleet.ingest(Array(lines[half...]), app: .default) }
    #expect(stored.heads[events[0].session]?.seq == lines.count)
    let history = try await Self.tried {
      try await fleet.history(of: events[0].session, app: .default, from: 1, to: Int.max)
    }
    #expect(history.count == lines.count)
    #expect(try await Self.tried { try await fleet.verify(events[0].session, app: .default) }.isIntact)
  }

  /// `call`, tried up to `times` times, a quarter second apart, while it fails as the
  /// database's failure.
  static func tried<T>(times: Int = 10, _ call: () async throws -> T) async throws -> T {
    for _ in 1..<times {
      do {
        return try await call()
      } catch let error as FleetError where error.isStorageFailure {
        try await Task.sleep(for: .milliseconds(250))
      }
    }
    return try await call()
  }
}

/// A PostgreSQL cluster of a test's own, through `Scripts/throwaway-postgres.sh`.
struct ThrowawayCluster {
  let folder: String
  let port: Int

  init(port: Int) throws {
    self.port = port
    folder = "/tmp/navstore-pg-test-\(UUID().uuidString.prefix(8).lowercased())"
  }

  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scripts/throwaway-postgres.sh").path

  /// Starts it (made the first time); its address.
  func start() throws -> String { try run("start", String(port)) }
  func halt() throws { _ = try run("halt") }
  func remove() { _ = try? run("stop") }

  /// Runs the script and waits for it with `waitpid`, its output in files: under root the script
  /// goes through `su`, whose end Foundation's `Process` was seen never to report here (the
  /// script a zombie, `waitUntilExit` waiting on), and a server it starts may keep an inherited
  /// descriptor open, so that a pipe would never reach its end either.
  private func run(_ arguments: String...) throws -> String {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString).out")
    let errors = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString).err")
    defer {
      try? FileManager.default.removeItem(at: output)
      try? FileManager.default.removeItem(at: errors)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = (["/bin/bash", Self.script] + arguments).map { strdup($0) } + [nil]
    let environment = ProcessInfo.processInfo.environment.merging(["NAVSTORE_PG_DIR": folder]) { $1 }
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, "/bin/bash", &actions, nil, argv, envp) == 0 else {
      throw TestPostgres.PostgresUnavailable(reason: "cannot run throwaway-postgres.sh")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    // Exited normally with status 0 (the low seven bits are the signal, the next byte the code).
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
      let complaint = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      throw TestPostgres.PostgresUnavailable(reason: "throwaway-postgres.sh \(arguments): \(complaint)")
    }
    return printed.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
