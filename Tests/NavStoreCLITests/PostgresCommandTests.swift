import Foundation
@_spi(Internals) import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
import PropertyBased
import Testing

/// The commands an operator runs against a fleet's store, given a PostgreSQL database instead of
/// a file: the same input gives the same output, byte for byte (the demo's sessions, and an
/// import of 100,000 events); forgetting and retention leave tombstones there too; `backup`
/// says to use `pg_dump`.
@Suite(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
struct PostgresCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder
  let url: String
  /// The app of this test in the shared database.
  let app: String

  init() throws {
    url = try #require(TestPostgres.url, "NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no server")
    temporary = try TemporaryFolder()
    folder = temporary.url
    app = TestPostgres.uniqueApp("cli")
    let initialized = try navstore("init", "--db", url)
    #expect(initialized.status == 0, "\(initialized.stderr)")
  }

  /// Builds the demo's store and writes its events as `demo.jsonl`, the lines the tests import.
  func writeDemoLines(sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(try navstore("demo", "--db", "demo.sqlite", "--no-wait").status == 0, sourceLocation: sourceLocation)
    let exported = try navstore(
      "export", "--db", "demo.sqlite", "--table", "events", "--format", "jsonl", "--out", "demo.jsonl")
    #expect(exported.status == 0, sourceLocation: sourceLocation)
  }

  /// Runs `arguments` against the file and against the database (`--app` this test's), and
  /// expects the same status, output and error lines.
  func expectSame(
    _ arguments: [String], file: String = "f.sqlite", app: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let local = try navstore(arguments + ["--db", file])
    let shared = try navstore(arguments + ["--db", url, "--app", app ?? self.app])
    #expect(shared.status == local.status, "\(arguments): \(shared.stderr)", sourceLocation: sourceLocation)
    // The two number their writes differently: what they hold is compared.
    #expect(
      maskingReceived(shared.stdout) == maskingReceived(local.stdout), "\(arguments)", sourceLocation: sourceLocation)
    #expect(
      maskingReceived(shared.stderr.replacingOccurrences(of: url, with: "DB"))
        == maskingReceived(local.stderr.replacingOccurrences(of: file, with: "DB")),
      "\(arguments)", sourceLocation: sourceLocation)
  }

  /// `export --schema` is PostgreSQL's too: each table's `CREATE TABLE` runs as printed (every
  /// column name unquoted), and a row of the demo's sessions export loads into it.
  @Test func theExportsSchemaCreatesEachTable() throws {
    let scratch = "schema_" + app.filter { $0.isLetter || $0.isNumber }
    var statements = ["CREATE SCHEMA \(scratch)", "SET search_path TO \(scratch)"]
    for table in ["events", "sessions", "screen-views", "transitions"] {
      let schema = try navstore("export", "--table", table, "--schema")
      try #require(schema.status == 0, "\(schema.stderr)")
      statements.append(schema.stdout)
    }
    statements.append(
      """
      INSERT INTO sessions (session, first_at, app_build, local_start, restored_from_seq)
        VALUES ('s', '2026-11-21T09:00:03.200Z', '0412', '2026-11-21T10:30:00.000', 2)
      """)
    let checked = try TestPostgres.psql(
      statements.joined(separator: ";\n")
        + ";\nSELECT app_build, pg_typeof(first_at), local_start FROM sessions;\nDROP SCHEMA \(scratch) CASCADE")
    #expect(checked == "0412|timestamp with time zone|2026-11-21 10:30:00\n")
  }

  @Test func theDemoReadsTheSameFromAFileAndFromPostgreSQL() throws {
    try writeDemoLines()
    for target in [["--db", "f.sqlite"], ["--db", url, "--app", app]] {
      let imported = try navstore(["import", "demo.jsonl"] + target)
      #expect(imported.status == 0, "\(imported.stderr)")
    }
    try expectSame(["sessions"])
    try expectSame(["sessions", "--json"])
    try expectSame(["sessions", "--sort", "last", "--limit", "3"])
    try expectSame(["sessions", "--screen", "numberDetail", "--json"])
    try expectSame(["verify", "--verbose"])
    for session in ["demo-onboarding", "demo-tabs", "demo-numbers", "nobody"] {
      try expectSame(["history", session])
      try expectSame(["history", session, "--json", "--from", "2"])
      try expectSame(["show", session, "--at", "3"])
      try expectSame(["show", session, "--json"])
      try expectSame(["replay", session, "--no-wait"])
    }
    for table in ["events", "sessions", "screen-views", "transitions"] {
      try expectSame(["export", "--table", table, "--format", "csv"])
      try expectSame(["export", "--table", table, "--format", "jsonl", "--since", "2026-11-21T10:00:00Z"])
    }
    // The same report page, from either store.
    for target in [["--db", "f.sqlite", "--out", "f.html"], ["--db", url, "--app", app, "--out", "p.html"]] {
      #expect(try navstore(["report", "demo-tabs"] + target).status == 0)
    }
    let local = try Data(contentsOf: folder.appendingPathComponent("f.html"))
    let shared = try Data(contentsOf: folder.appendingPathComponent("p.html"))
    #expect(local == shared)
    // The same file again: every line is a duplicate.
    let again = try navstore("import", "demo.jsonl", "--db", url, "--app", app)
    #expect(again.stdout.contains("imported 0 events") && again.stdout.contains("already stored, skipped"))
  }

  /// Random histories (tabs, nested flows, lifecycle, ends, launches, links to sessions the store
  /// does not hold) give the same output from a file and from PostgreSQL through every command
  /// that reads or changes sessions: listings, history, states, replays, verify, every export,
  /// reports, bundles, checkpoints with their proofs and audits, forgetting and retention.
  @Test func randomHistoriesGiveTheSameOutputFromAFileAndFromPostgreSQL() async throws {
    try NavStoreProcess.makeKey("k.key", name: "differential", verifierInto: "k.pub", in: folder)
    await checkProperty(count: 2, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      try self.expectSameCommands(seed: UInt64(seed))
    }
  }

  /// One random store, written to a file and to an app of its own in the database, and every
  /// command run on both.
  func expectSameCommands(seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    // A name of its own for each run's files: a property may draw the same seed twice.
    let run = "r\(seed)-\(UUID().uuidString.prefix(8))"
    let sessions = RichSessions.make(count: 6, using: &rng)
    let lines = try sessions.joined().map { String(decoding: try WireFormat.canonicalBytes($0), as: UTF8.self) }
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("\(run).jsonl"), atomically: true, encoding: .utf8)
    let file = "\(run).sqlite"
    let app = TestPostgres.uniqueApp("random")
    let stores = [["--db", file], ["--db", url, "--app", app]]
    for target in stores {
      let imported = try navstore(["import", "\(run).jsonl"] + target)
      #expect(imported.status == 0, "seed \(seed): \(imported.stderr)")
    }
    func same(_ arguments: [String]) throws { try expectSame(arguments, file: file, app: app) }
    try same(["sessions"])
    try same(["sessions", "--json"])
    try same(["sessions", "--sort", "last", "--limit", "4"])
    try same(["verify", "--verbose"])
    let ids = sessions.map { $0[0].session.rawValue }
    for session in ids + ["nobody"] {
      try same(["history", session])
      try same(["history", session, "--json", "--from", "2"])
      try same(["show", session, "--at", "2"])
      try same(["show", session, "--json"])
      try same(["replay", session, "--no-wait"])
    }
    for table in ["events", "sessions", "screen-views", "transitions"] {
      for format in ["csv", "jsonl"] {
        try same(["export", "--table", table, "--format", format])
        try same(["export", "--table", table, "--format", format, "--session", ids[1]])
      }
      try same(["export", "--table", table, "--format", "csv", "--omit-payloads"])
    }
    // Files a command writes: the same bytes, written under two names.
    func sameFiles(_ arguments: [String], _ name: String) throws {
      var written: [Data] = []
      var outputs: [String] = []
      for (index, target) in stores.enumerated() {
        let out = "\(run)-\(index)-\(name)"
        let run = try navstore(arguments + ["--out", out] + target)
        #expect(run.status == 0, "\(arguments): \(run.stderr)")
        outputs.append(run.stdout.replacingOccurrences(of: out, with: name))
        written.append(try Data(contentsOf: folder.appendingPathComponent(out)))
      }
      #expect(outputs[0] == outputs[1], "\(arguments)")
      #expect(!written[0].isEmpty && written[0] == written[1], "\(arguments)")
    }
    try sameFiles(["report", ids[0]], "report.html")
    try sameFiles(["bundle", ids[2]], "bundle.jsonl")
    // Each store's checkpoint is its own (its note names the store): made, audited and proved
    // on its store, and each step says the same.
    var checkpoints: [String] = []
    var audits: [String] = []
    var proofs: [String] = []
    for (index, target) in stores.enumerated() {
      let note = "\(run)-\(index)-c.note"
      let made = try navstore(
        ["checkpoint", "--key", "k.key", "--at", "2026-11-23T00:00:00.000Z", "--out", note] + target)
      checkpoints.append("\(made.status) " + made.stdout.replacingOccurrences(of: note, with: "c.note"))
      let audit = try navstore(["verify", "--checkpoint", note, "--key", "k.pub", "--verbose"] + target)
      audits.append("\(audit.status) " + audit.stdout.replacingOccurrences(of: note, with: "c.note"))
      let proof = try navstore(["prove", ids[3], "--checkpoint", note] + target)
      #expect(proof.status == 0, "\(proof.stderr)")
      try proof.stdout.write(
        to: folder.appendingPathComponent("\(run)-\(index).proof.json"), atomically: true, encoding: .utf8)
      let history = "\(run)-\(index)-history.jsonl"
      let exported = try navstore(
        ["export", "--table", "events", "--format", "jsonl", "--session", ids[3], "--out", history] + target)
      #expect(exported.status == 0)
      let checked = try navstore(
        "verify", "--proof", "\(run)-\(index).proof.json", "--key", "k.pub", "--history", history)
      // The checkpoint's origin names its store, which is all that differs.
      proofs.append(
        "\(checked.status) " + checked.stdout.replacing(/checkpoint of \S+ of/, with: "checkpoint of ORIGIN of"))
    }
    #expect(checkpoints[0] == checkpoints[1] && checkpoints[0].hasPrefix("0 "), "\(checkpoints)")
    #expect(audits[0] == audits[1] && audits[0].hasPrefix("0 "), "\(audits)")
    #expect(proofs[0] == proofs[1] && proofs[0].hasPrefix("0 "), "\(proofs)")
    // Forgetting and retention: the same sessions go, the same tombstones stay (each forgotten
    // at its own run's time).
    func sameForgetting(_ arguments: [String]) throws {
      let runs = try stores.map { try navstore(arguments + $0) }
      let said = runs.map { "\($0.status) " + $0.stdout.replacing(/forgotten at \S+/, with: "forgotten at NOW") }
      #expect(said[0] == said[1] && said[0].hasPrefix("0 "), "\(arguments): \(said) \(runs.map(\.stderr))")
    }
    try sameForgetting(["forget", ids[4]])
    let cutoff = "2026-11-18T11:07:00.000Z"
    try same(["prune", "--before", cutoff, "--dry-run"])
    try sameForgetting(["prune", "--before", cutoff])
    try same(["sessions", "--json"])
    try same(["export", "--table", "sessions", "--format", "csv"])
    try same(["verify"])
  }

  /// 25,000 events: three of the PostgreSQL import's transactions (10,000 lines each, the last
  /// one short), one for SQLite; every read and export of the two the same.
  @Test func anImportOfSeveralBatchesGivesTheSameStore() throws {
    let lines = SessionLines.make(prefix: "big", sessions: 50, events: 500)
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("big.jsonl"), atomically: true, encoding: .utf8)
    for target in [["--db", "f.sqlite"], ["--db", url, "--app", app]] {
      let imported = try navstore(["import", "big.jsonl"] + target)
      #expect(imported.status == 0, "\(imported.stderr)")
      #expect(imported.stdout.hasPrefix("imported 25000 events into 50 sessions"), "\(imported.stdout)")
    }
    try expectSame(["sessions", "--json"])
    try expectSame(["verify"])
    try expectSame(["history", "big-7", "--json"])
    for table in ["events", "sessions", "screen-views", "transitions"] {
      try expectSame(["export", "--table", table, "--format", "csv"])
    }
  }

  @Test func aBadLineStopsTheImportAndKeepsNothingOfItsBatch() throws {
    let good = SessionLines.make(prefix: "ok", sessions: 1, events: 4)
    let bad = #"{"session":"ok-0","seq":9,"at":"2026-11-21T10:00:00.000Z","op":{"op":"pop"}}"#
    try ((good + [bad]).joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("bad.jsonl"), atomically: true, encoding: .utf8)
    let imported = try navstore("import", "bad.jsonl", "--db", url, "--app", app)
    #expect(imported.status == 1)
    #expect(imported.stderr.contains("line 5:"), "\(imported.stderr)")
    let listed = try navstore("sessions", "--db", url, "--app", app, "--json")
    #expect(listed.stdout.isEmpty, "nothing of the batch was kept: \(listed.stdout)")
    // A batch of nothing but a line that is not an event fails as well.
    try "not json\n".write(to: folder.appendingPathComponent("junk.jsonl"), atomically: true, encoding: .utf8)
    let junk = try navstore("import", "junk.jsonl", "--db", url, "--app", app)
    #expect(junk.status == 1 && junk.stderr.contains("line 1"), "\(junk.stderr)")
  }

  @Test func forgettingAndRetentionLeaveTombstones() throws {
    try writeDemoLines()
    #expect(try navstore("import", "demo.jsonl", "--db", url, "--app", app).status == 0)
    let forgot = try navstore("forget", "demo-numbers", "--db", url, "--app", app)
    #expect(forgot.status == 0, "\(forgot.stderr)")
    #expect(forgot.stdoutLines.first?.hasPrefix("forgot demo-numbers: forgotten at ") == true)
    let again = try navstore("forget", "demo-numbers", "--db", url, "--app", app)
    #expect(again.status == 1 && again.stderr.contains("was forgotten at"))
    let dry = try navstore("prune", "--db", url, "--app", app, "--before", "2026-11-21T09:45:00.000Z", "--dry-run")
    #expect(dry.status == 0)
    #expect(dry.stdoutLines.last == "4 sessions last active before 2026-11-21T09:45:00.000Z", "\(dry.stdout)")
    let pruned = try navstore("prune", "--db", url, "--app", app, "--before", "2026-11-21T09:45:00.000Z")
    #expect(pruned.stdoutLines.last == "forgot 4 sessions last active before 2026-11-21T09:45:00.000Z")
    let left = try navstore("sessions", "--db", url, "--app", app, "--json").stdoutLines.count
    #expect(left == 5)
    // A forgotten session's lines are refused, as on a file.
    let reimport = try navstore("import", "demo.jsonl", "--db", url, "--app", app)
    #expect(reimport.status == 1 && reimport.stderr.contains("forgotten"), "\(reimport.stderr)")
    #expect(
      try TestPostgres.psql("SELECT count(*) FROM tombstones WHERE app = '\(app)'").trimmingCharacters(
        in: .whitespacesAndNewlines) == "5")
  }

  /// A checkpoint of the app's sessions is kept in the database and audited there: a tail cut
  /// with `psql` and the session's row fixed to match verifies as a chain, and is named against
  /// the checkpoint; another app's sessions are not this checkpoint's.
  @Test func aCheckpointInTheDatabaseFindsATailCutWithPsql() throws {
    try writeDemoLines()
    #expect(try navstore("import", "demo.jsonl", "--db", url, "--app", app).status == 0)
    try NavStoreProcess.makeKey("k.key", name: "fleet-audit", verifierInto: "k.pub", in: folder)
    let made = try navstore("checkpoint", "--db", url, "--app", app, "--key", "k.key", "--out", "c.note")
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout == "checkpoint of 10 sessions and 94 events written to c.note\n")
    let intact = try navstore("verify", "--db", url, "--app", app, "--checkpoint", "c.note", "--key", "k.pub")
    #expect(intact.status == 0, "\(intact.stderr)")
    #expect(intact.stdoutLines.last?.hasSuffix("(10 sessions, 94 events, signed by fleet-audit): 0 problems") == true)

    // The row fixed to match the first five events, as a careful tamperer would.
    let shown = try navstore("show", "demo-browse-2", "--at", "5", "--json", "--db", url, "--app", app)
    let depthAtFive = try WireFormat.decode(AnyCoordinator.self, from: shown.stdout).visibleDepth
    let rows = "app = '\(app)' AND session_id = 'demo-browse-2'"
    let kept = "SELECT max(at) - min(at) FROM events WHERE \(rows)"
    try TestPostgres.psql(
      """
      ALTER TABLE events DISABLE TRIGGER events_are_append_only;
      DELETE FROM snapshots WHERE \(rows) AND seq > 5;
      DELETE FROM events WHERE \(rows) AND seq > 5;
      ALTER TABLE events ENABLE TRIGGER events_are_append_only;
      UPDATE sessions SET event_count = 5, head_hash = (SELECT hash FROM events WHERE \(rows) AND seq = 5),
          duration_ms = (\(kept)), foreground_ms = (\(kept)), last_at = (SELECT max(at) FROM events WHERE \(rows)),
          depth = \(depthAtFive), phase = 'foreground'
        WHERE app = '\(app)' AND id = 'demo-browse-2';
      """)
    #expect(try navstore("verify", "--db", url, "--app", app, "demo-browse-2").status == 0)
    let cut = try navstore("verify", "--db", url, "--app", app, "--checkpoint", "c.note", "--key", "k.pub")
    #expect(cut.status == 1)
    #expect(cut.stdoutLines.contains("checkpoint: demo-browse-2 at seq 10: TRUNCATED, the session now has 5 events"))
    #expect(
      cut.stderrLines == [
        "navstore: against the checkpoint, demo-browse-2 at seq 10: TRUNCATED, the session now has 5 events"
      ])

    let other = TestPostgres.uniqueApp("cli")
    #expect(try navstore("import", "demo.jsonl", "--db", url, "--app", other).status == 0)
    let elsewhere = try navstore("verify", "--db", url, "--app", other, "--checkpoint", "c.note", "--key", "k.pub")
    #expect(elsewhere.status == 1)
    #expect(elsewhere.stderr.contains("another store"), "\(elsewhere.stderr)")
  }

  /// A bundle and a proof, which once wrote nothing and found no store on PostgreSQL: the
  /// bundle is the file's byte for byte (a session restored from another, with it), and the
  /// proof from the database's checkpoint is checked without the database.
  @Test func bundleAndProveWorkAsOnAFile() throws {
    let first = SessionLines.make(prefix: "s", sessions: 1, events: 4)
    let restored =
      #"{"session":"s-1","seq":1,"at":"2026-11-22T10:00:00.000Z","op":{"op":"start","restoredFrom":{"session":"s-0","seq":4},"#
      + #""state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}}"#
    try ((first + [restored]).joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("line.jsonl"), atomically: true, encoding: .utf8)
    for target in [["--db", "f.sqlite"], ["--db", url, "--app", app]] {
      let imported = try navstore(["import", "line.jsonl"] + target)
      #expect(imported.status == 0, "\(imported.stderr)")
    }
    let local = try navstore("bundle", "s-1", "--out", "f.jsonl", "--db", "f.sqlite")
    let shared = try navstore("bundle", "s-1", "--out", "p.jsonl", "--db", url, "--app", app)
    #expect(shared.status == 0, "\(shared.stderr)")
    #expect(shared.stdoutLines == ["bundle of 2 sessions (s-0, s-1) written to p.jsonl"])
    #expect(local.stdout.replacingOccurrences(of: "f.jsonl", with: "p.jsonl") == shared.stdout)
    let bundled = try Data(contentsOf: folder.appendingPathComponent("p.jsonl"))
    let fromFile = try Data(contentsOf: folder.appendingPathComponent("f.jsonl"))
    #expect(!bundled.isEmpty && bundled == fromFile)
    // A fixture is the same from either engine.
    #expect(try navstore("fixture", "s-1", "--out", "f.fixture.jsonl", "--db", "f.sqlite").status == 0)
    let fixture = try navstore("fixture", "s-1", "--out", "p.fixture.jsonl", "--db", url, "--app", app)
    #expect(fixture.status == 0, "\(fixture.stderr)")
    let fixtures = try ["f", "p"].map { try Data(contentsOf: folder.appendingPathComponent("\($0).fixture.jsonl")) }
    #expect(!fixtures[0].isEmpty && fixtures[0] == fixtures[1])
    try expectSame(["bundle", "s-1", "--out", "p.jsonl"])  // never over a file
    try expectSame(["bundle", "nobody", "--out", "n.jsonl"])
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("n.jsonl").path))

    try NavStoreProcess.makeKey("k.key", name: "fleet-audit", verifierInto: "k.pub", in: folder)
    #expect(try navstore("checkpoint", "--db", url, "--app", app, "--key", "k.key", "--out", "c.note").status == 0)
    let proof = try navstore("prove", "s-0", "--checkpoint", "c.note", "--db", url, "--app", app)
    #expect(proof.status == 0, "\(proof.stderr)")
    try proof.stdout.write(to: folder.appendingPathComponent("s-0.proof.json"), atomically: true, encoding: .utf8)
    #expect(
      try navstore(
        "export", "--table", "events", "--format", "jsonl", "--session", "s-0", "--out", "s-0.jsonl", "--db", url,
        "--app", app
      ).status == 0)
    let checked = try navstore("verify", "--proof", "s-0.proof.json", "--key", "k.pub", "--history", "s-0.jsonl")
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.stdoutLines.last == "the history matches it: its events 1 to 4 give that chain value")
    let absent = try navstore("prove", "nobody", "--checkpoint", "c.note", "--db", url, "--app", app)
    #expect(absent.status == 1)
    #expect(absent.stderrLines.count == 1 && absent.stderr.contains("nobody"), "\(absent.stderr)")
    // A file's checkpoint is not the database's.
    #expect(try navstore("checkpoint", "--db", "f.sqlite", "--key", "k.key", "--out", "f.note").status == 0)
    let elsewhere = try navstore("prove", "s-0", "--checkpoint", "f.note", "--db", url, "--app", app)
    #expect(elsewhere.status == 1 && elsewhere.stderr.contains("another store"), "\(elsewhere.stderr)")
  }

  /// A collector on PostgreSQL reads through a pool of its own: exports whose readers take
  /// nothing hold every connection the reads may have, and uploads, answered from the other
  /// pool, are stored all the same (with one pool, they waited for a connection until their
  /// deadline, a 503).
  @Test func exportsHoldingEveryReadConnectionLeaveTheUploadsTheirs() throws {
    let stored = SessionLines.make(prefix: "stored", sessions: 200, events: 60)
    // About 3 MiB of CSV: far more than a socket's buffers hold, so each export stays open.
    try (stored.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("stored.jsonl"), atomically: true, encoding: .utf8)
    #expect(try navstore("import", "stored.jsonl", "--db", url, "--app", app).status == 0)
    let token = { (role: String) in
      try navstore("token", "create", "--app", self.app, "--role", role, "--db", self.url).stdout
        .trimmingCharacters(in: .newlines)
    }
    let (ingest, reader) = (try token("ingest"), try token("read"))
    let server = try CollectorProcess(db: url, in: folder, options: ["--db-connections", "2"])
    try #require(server.url.hasPrefix("http://127.0.0.1:"), "serve did not start")

    let request = "GET /v1/export/events?format=csv HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(reader)\r\n\r\n"
    var readers = try (0..<2).map { _ in try RawConnection(port: server.port, receiveBuffer: 4096) }
    for connection in readers {
      #expect(connection.send(request))
      let first = connection.receive(upTo: 16_384, within: 10)
      #expect(String(decoding: first.prefix(64), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }
    // Both exports are under way, each in a transaction on a connection of the reads' pool.
    let held = try TestPostgres.psql(
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'navstore-reads' AND xact_start IS NOT NULL")
    #expect(held.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "read connections in a transaction: \(held)")

    let lines = SessionLines.make(prefix: "beside-exports", sessions: 1, events: 10)
    let upload = try DrillHTTP.post(
      server.url + "/v1/events", token: ingest, body: Data((lines.joined(separator: "\n") + "\n").utf8), timeout: 30)
    #expect(upload.status == 200, "\(upload.status) \(upload.text)")
    readers.removeAll()
    #expect(server.stop(SIGTERM) == 0)
  }

  /// At `--log-level trace` the collector writes what it writes at `info` and no more of a
  /// request: the database driver's lines, which dump each query's values at its own trace
  /// level, stay at debug, so no session id and no part of a token's hash reaches the log.
  @Test func traceLogsRedactWhatInfoLogsDo() throws {
    let token = { (role: String) in
      try navstore("token", "create", "--app", self.app, "--role", role, "--db", self.url).stdout
        .trimmingCharacters(in: .newlines)
    }
    let (ingest, reader) = (try token("ingest"), try token("read"))
    let log = folder.appendingPathComponent("trace.log").path
    let server = try CollectorProcess(db: url, in: folder, options: ["--log-level", "trace"], log: log)
    try #require(server.url.hasPrefix("http://127.0.0.1:"), "serve did not start")
    let session = "secret-session-7f3a9"
    let line =
      #"{"session":"\#(session)","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}}"#
    let upload = try DrillHTTP.post(server.url + "/v1/events", token: ingest, body: Data((line + "\n").utf8))
    #expect(upload.status == 200)
    #expect(try DrillHTTP.get(server.url + "/v1/sessions/\(session)/head", token: reader).status == 200)
    #expect(server.stop(SIGTERM) == 0)
    let text = try String(contentsOfFile: log, encoding: .utf8)
    #expect(text.contains("answered"), "the log has its request lines")
    #expect(!text.contains(session), "a session id in the trace log")
    for secret in [ingest, reader] {
      let hex = HashChain.hex(try #require(PresentedToken(secret)?.secretHash))
      #expect(!text.contains(String(hex.prefix(16))), "a token's hash in the trace log")
      #expect(!text.contains(String(secret.split(separator: "_")[2])), "a token's secret in the trace log")
    }
  }

  /// The commands that only a store file can serve say so in one line, with what to run
  /// instead, and leave nothing behind (they once tried to make a file named by the address).
  @Test(arguments: [
    (["backup", "--out", "copy.sqlite"], "pg_dump"),
    (["append", "s-1", "--op", #"{"op":"pop"}"#], "navstore import FILE"),
    (["push", "--to", "http://127.0.0.1:9", "--token", "t"], "navstore export --table events"),
  ])
  func commandsForStoreFilesSayWhatToRunInstead(arguments: [String], instead: String) throws {
    let refused = try navstore(arguments + ["--db", url, "--app", app])
    #expect(refused.status == 1)
    #expect(refused.stderrLines.count == 1 && refused.stderr.contains(instead), "\(refused.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func theDemoSaysHowToTakeItsSessionsToPostgreSQL() throws {
    let refused = try navstore("demo", "--db", url, "--no-wait")
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("navstore import demo.jsonl"), "\(refused.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
