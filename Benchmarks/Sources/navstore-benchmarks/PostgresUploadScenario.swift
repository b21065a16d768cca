import Foundation

/// 11. Upload throughput into PostgreSQL: scenario 10's clients and batches, sent to `navstore
/// serve --db postgres://...`, against `psql`'s `\copy` loading the very rows that upload
/// stored (sessions, events and snapshots, in one transaction): the database's own bulk path,
/// the limit of any collector. Interleaved rounds, each into an app of its own in one database,
/// so both sides write into tables of the same size. Then the collector's peak memory at the
/// same number of events spread over 1, 4 and 16 times as many sessions: it must stay flat.
///
/// The database is `NAVSTORE_POSTGRES_URL` (`Scripts/throwaway-postgres.sh start` prints one);
/// without it the scenario is skipped, unless `NAVSTORE_REQUIRE_POSTGRES=1` (CI) makes that a
/// failure. A standby streaming from it is named in the result's note: on the same machine its
/// replay takes CPU from the collector (which keeps both cores busy) and not from `psql`'s one
/// backend, so stop it first (`Scripts/throwaway-postgres.sh stop-standby`).
enum PostgresUploadScenario {
  /// The rows an upload stores, table by table, in the column order both sides use.
  static let tables: [(name: String, columns: String)] = [
    (
      "sessions",
      "app, id, month, event_count, first_at, last_at, head_hash, depth, restored_from_session, restored_from_seq, "
        + "clock_jumps, duration_ms, foreground_ms, context, phase"
    ),
    ("events", "app, session_id, month, seq, at, origin, op, cause, hash"),
    ("snapshots", "app, session_id, month, seq, state"),
  ]

  static func run(sessions: Int, eventsPerSession: Int, rounds: Int) throws -> [Measurement] {
    let environment = ProcessInfo.processInfo.environment
    guard let url = environment["NAVSTORE_POSTGRES_URL"], !url.isEmpty else {
      if environment["NAVSTORE_REQUIRE_POSTGRES"] == "1" {
        throw BenchmarkError("NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no database")
      }
      print("  skipped: NAVSTORE_POSTGRES_URL names no database (Scripts/throwaway-postgres.sh start prints one)")
      return []
    }
    let navstore = try UploadScenario.builtNavstore()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-bench-pg-upload")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    guard try UploadScenario.runToEnd(navstore, ["init", "--db", url]) == 0 else {
      throw BenchmarkError("navstore init --db \(redacted(url)) failed")
    }
    let standbys = try psql(url, "SELECT count(*) FROM pg_stat_replication", output: true)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if standbys != "0" {
      print("  note: \(standbys) standby streaming from the database; on this machine it slows the upload, not \\copy")
    }
    let run = "b" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    var appNumber = 0
    let freshApp = { () -> String in
      appNumber += 1
      return "\(run)-\(appNumber)"
    }

    let (_, batches) = try UploadScenario.prepare(sessions: sessions, eventsPerSession: eventsPerSession, in: folder)
    let total = sessions * eventsPerSession
    // The rows to \copy: what one upload stored, as CSV without the app (each round's own).
    let source = freshApp()
    _ = try upload(batches, total: total, navstore: navstore, folder: folder, url: url, app: source)
    let rows = try tables.map { table in
      let file = folder.appendingPathComponent("\(table.name).csv")
      let columns = table.columns.dropFirst("app, ".count)
      try psql(
        url,
        "\\copy (SELECT \(columns) FROM \(table.name) WHERE app = '\(source)' ORDER BY 1, 2, 3) TO '\(file.path)' CSV")
      return try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true)
    }

    var peaks: [Double] = []
    let times = try Interleaved.rounds(
      rounds,
      [
        {
          let upload = try upload(batches, total: total, navstore: navstore, folder: folder, url: url, app: freshApp())
          peaks.append(upload.peakMiB)
          return upload.seconds
        },
        { try copy(rows, total: total, url: url, app: freshApp(), folder: folder) },
      ])
    var results = [
      Measurement(
        scenario: "11 upload into PostgreSQL (4 clients)", pairs: times.map { Pair(ours: $0[0], anchor: $0[1]) },
        anchorName: "psql \\copy of its rows", rows: total,
        note: "the rows of sessions, events, snapshots; target >= 0.5x"
          + (standbys == "0" ? "" : "; \(standbys) standby streaming"))
    ]

    // The same events over more sessions: the collector's memory must not follow them.
    for factor in [1, 4, 16] {
      let spread = sessions * factor
      let perSession = max(1, eventsPerSession / factor)
      let peak: Double
      if factor == 1 {
        peak = median(peaks)
      } else {
        let (_, spreadBatches) = try UploadScenario.prepare(
          sessions: spread, eventsPerSession: perSession, in: folder, name: "spread-\(factor)")
        peak =
          try upload(
            spreadBatches, total: spread * perSession, navstore: navstore, folder: folder, url: url, app: freshApp()
          ).peakMiB
      }
      results.append(
        Measurement(
          scenario: "11 collector peak memory, \(spread) sessions", ours: peak, anchorName: "-", anchor: nil,
          unit: "MiB", rows: spread * perSession, note: "\(perSession) events each; flat in sessions"))
    }
    return results
  }

  /// One upload through a collector on the database, into `app`.
  static func upload(_ batches: [[URL]], total: Int, navstore: URL, folder: URL, url: String, app: String) throws
    -> (seconds: Double, peakMiB: Double)
  {
    try UploadScenario.upload(
      batches, expecting: total, navstore: navstore, folder: folder, into: ["--db", url, "--app", app])
  }

  /// One timed `psql` loading `rows` (per table, CSV without the app) into `app` with `\copy`, in
  /// one transaction; the app's row and the files are made before the clock.
  static func copy(_ rows: [[Substring]], total: Int, url: String, app: String, folder: URL) throws -> Double {
    var script = ""
    for (table, lines) in zip(tables, rows) {
      let file = folder.appendingPathComponent("copy-\(table.name).csv")
      try Data(lines.map { "\(app),\($0)\n" }.joined().utf8).write(to: file)
      script += "\\copy \(table.name) (\(table.columns)) FROM '\(file.path)' CSV\n"
    }
    let scriptFile = folder.appendingPathComponent("copy.sql")
    try Data(script.utf8).write(to: scriptFile)
    try psql(url, "INSERT INTO apps (name, created_at) VALUES ('\(app)', 0)")
    let seconds = try time { try psql(url, file: scriptFile.path) }
    let count = try psql(url, "SELECT count(*) FROM events WHERE app = '\(app)'", output: true)
    guard Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) == total else {
      throw BenchmarkError("psql \\copy stored \(count) events of \(total)")
    }
    return seconds
  }

  /// Runs `psql` on `url` with one command or a script file, stopping at the first error, in one
  /// transaction; its output when asked for.
  @discardableResult
  static func psql(_ url: String, _ command: String? = nil, file: String? = nil, output: Bool = false) throws -> String
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-1"]
      + (command.map { ["-c", $0] } ?? []) + (file.map { ["-f", $0] } ?? [])
    let pipe = Pipe()
    process.standardOutput = output ? pipe : FileHandle(forWritingAtPath: "/dev/null")
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let text = output ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
    let problem = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchmarkError("psql failed: \(String(decoding: problem, as: UTF8.self))")
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The address without its password, for a message.
  static func redacted(_ url: String) -> String {
    guard var parts = URLComponents(string: url) else { return "the database" }
    parts.password = nil
    return parts.string ?? "the database"
  }
}
