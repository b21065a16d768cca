import Foundation
import NavCore
import NavTestSupport
import Testing

/// The exports as analysts load them: every column of every CSV table selects unquoted in DuckDB
/// and in SQLite, and the analytics guide's DuckDB queries give the numbers the guide shows, on
/// the demo store.
///
/// They run where DuckDB is installed (`pip install duckdb-cli`). CI installs it and sets
/// `NAVSTORE_REQUIRE_DUCKDB=1`, which makes a missing DuckDB a failure rather than a skip.
@Suite(.waitsOnProcesses, .enabled(if: DuckDB.executable != nil || DuckDB.isRequired, "DuckDB is not installed"))
struct AnalyticsQueryTests {

  /// The file names the guide's commands write, by table.
  static let files = [
    "events": "events.csv", "sessions": "sessions.csv", "screen-views": "views.csv", "transitions": "transitions.csv",
  ]

  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    try #require(try NavStoreProcess.run(["demo", "--db", "demo.sqlite"], in: folder).status == 0)
    for (table, file) in Self.files {
      let exported = try NavStoreProcess.run(
        ["export", "--db", "demo.sqlite", "--table", table, "--format", "csv", "--out", file], in: folder)
      try #require(exported.status == 0, "\(exported.stderr)")
    }
    // The sessions as the guide exports them, for the query that joins their context.
    let sessions = try NavStoreProcess.run(
      ["export", "--db", "demo.sqlite", "--table", "sessions", "--format", "jsonl", "--out", "sessions.jsonl"],
      in: folder)
    try #require(sessions.status == 0, "\(sessions.stderr)")
  }

  /// Runs a program in the folder and returns its standard output, requiring success.
  func run(_ executable: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "\(executable.lastPathComponent) \(arguments): \(stderr)")
    return stdout
  }

  func duckDB() throws -> URL {
    try #require(
      DuckDB.executable, "NAVSTORE_REQUIRE_DUCKDB=1, but there is no duckdb on the PATH (pip install duckdb-cli)")
  }

  @Test func everyColumnOfEveryTableSelectsUnquotedInDuckDBAndSQLite() throws {
    let duckDB = try duckDB()
    let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
    for (table, file) in Self.files.sorted(by: { $0.key < $1.key }) {
      let header = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        .components(separatedBy: "\r\n")[0].split(separator: ",").map(String.init)
      #expect(header.count >= 6, "\(table)")
      // `run` requires each program to exit 0: a reserved name is a parser error in either.
      for column in header {
        _ = try run(duckDB, ["-csv", "-noheader", "-c", "SELECT \(column) FROM read_csv('\(file)') LIMIT 1"])
        _ = try run(sqlite, [":memory:", ".import --csv \(file) t", "SELECT \(column) FROM t LIMIT 1"])
      }
    }
    // The check can fail: DuckDB refuses the old name of the time column unquoted (SQLite does
    // not reserve `at`; its half guards the names SQLite reserves).
    #expect(throws: (any Error).self) { try self.runExpectingFailure(duckDB, "SELECT at FROM read_csv('events.csv')") }
  }

  /// `export --schema` loads each table's CSV with its columns' types, in DuckDB and in SQLite:
  /// the demo's `app_build` (`412`) stays text, which DuckDB's own guess reads as a number.
  @Test func theSchemaLoadsEveryTableWithTextKeptAsText() throws {
    let duckDB = try duckDB()
    let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
    var duckStatements: [String] = []
    var sqliteStatements: [String] = []
    for (table, file) in Self.files.sorted(by: { $0.key < $1.key }) {
      let schema = try NavStoreProcess.run(["export", "--table", table, "--schema"], in: folder)
      try #require(schema.status == 0, "\(schema.stderr)")
      let name = table.replacingOccurrences(of: "-", with: "_")
      duckStatements += [schema.stdout, "COPY \(name) FROM '\(file)' (HEADER);"]
      sqliteStatements += [schema.stdout, ".import --csv --skip 1 \(file) \(name)"]
    }
    let guessed = try run(duckDB, ["-csv", "-noheader", "-c", "SELECT typeof(app_build) FROM 'sessions.csv' LIMIT 1"])
    #expect(guessed == "BIGINT\n", "without the schema, DuckDB reads app_build as a number")
    let check = "SELECT typeof(app_build), count(*) FROM sessions GROUP BY 1;"
    let duck = try run(duckDB, ["-csv", "-noheader", "-c", (duckStatements + [check]).joined(separator: "\n")])
    #expect(duck == "VARCHAR,10\n")
    let lite = try run(sqlite, [":memory:"] + sqliteStatements + [check])
    #expect(lite == "text|10\n")
    let views = try run(
      duckDB,
      ["-csv", "-noheader", "-c", (duckStatements + ["SELECT count(*) FROM screen_views;"]).joined(separator: "\n")])
    let exported = try String(contentsOf: folder.appendingPathComponent("views.csv"), encoding: .utf8)
    #expect(views == "\(exported.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count - 1)\n")
  }

  /// Throws when DuckDB refuses the query.
  func runExpectingFailure(_ duckDB: URL, _ sql: String) throws {
    let process = Process()
    process.executableURL = duckDB
    process.arguments = ["-c", sql]
    process.currentDirectoryURL = folder
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    process.waitUntilExit()
    if process.terminationStatus != 0 { throw CocoaError(.featureUnsupported) }
  }

  @Test func theGuidesQueriesGiveTheNumbersItShows() throws {
    let duckDB = try duckDB()
    let queries = try Self.guideQueries()
    #expect(
      queries.count == 8,
      "top screens, time on the last screen, paths, funnel, funnel across a relaunch, how people leave, time by app version, screens per session"
    )
    for query in queries {
      let rows = try run(duckDB, ["-csv", "-c", query.sql]).split(whereSeparator: \.isNewline).map { line in
        line.split(separator: ",", omittingEmptySubsequences: false).map {
          $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
      }
      #expect(rows == query.expected, "\(query.sql)")
    }
  }

  /// The guide's hourly loader, run as printed: a first pull, a session dated two days before
  /// the demo's uploaded late, the next pull from the cursor, and the DuckDB merge. The table
  /// it loads is the export of every view, row for row.
  @Test func theGuidesHourlyLoaderNeverMissesALateUpload() throws {
    let duckDB = try duckDB()
    let guide = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/guides/analytics.md"), encoding: .utf8)
    let section = try #require(guide.components(separatedBy: "## Pull what is new, every hour").dropFirst().first)
    let shell = try #require(
      section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
    let merge = try #require(
      section.components(separatedBy: "```sql\n").dropFirst().first?.components(separatedBy: "```").first)
    let pulls = shell.components(separatedBy: "# an hour later, and every hour after:\n")
    try #require(pulls.count == 2, "the loader's block: a first pull, the comment, the next pull")
    let bin = NavStoreProcess.binary.deletingLastPathComponent().path
    func sh(_ script: String) throws {
      _ = try run(
        URL(fileURLWithPath: "/bin/sh"),
        ["-c", "export PATH=\"\(bin):$PATH\" NAVSTORE_DB=demo.sqlite; set -e; " + script])
    }
    try sh(pulls[0])
    let late = (1...3).map { seq in
      let op =
        seq == 1
        ? #"{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}"#
        : #"{"op":"push","screen":"numbersList\#(seq)"}"#
      return #"{"session":"late","seq":\#(seq),"at":"2026-11-19T08:00:0\#(seq).000Z","op":\#(op)}"#
    }
    try late.joined(separator: "\n").write(
      to: folder.appendingPathComponent("late.jsonl"), atomically: true, encoding: .utf8)
    try sh("navstore import late.jsonl")
    try sh(pulls[1])
    let second = try String(contentsOf: folder.appendingPathComponent("views-2.csv"), encoding: .utf8)
    #expect(second.contains("\r\nlate,home,"), "the late session is in the next pull")
    try sh("navstore export --table screen-views --format csv --out views-all.csv")
    _ = try run(duckDB, ["loaded.duckdb", "-c", merge])
    let all = "read_csv('views-all.csv')"
    let counts = try run(
      duckDB,
      [
        "loaded.duckdb", "-csv", "-noheader", "-c",
        "SELECT (SELECT count(*) FROM views), (SELECT count(*) FROM \(all)), "
          + "(SELECT count(*) FROM (SELECT * FROM views EXCEPT ALL SELECT * FROM \(all))), "
          + "(SELECT count(*) FROM (SELECT * FROM \(all) EXCEPT ALL SELECT * FROM views))",
      ]
    ).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
    #expect(counts.count == 4 && counts[0] == counts[1] && counts[2] == "0" && counts[3] == "0", "\(counts)")
  }

  /// Each `duckdb -markdown -c "..."` block of the analytics guide's "Questions a product team
  /// asks first", with the table printed after it.
  static func guideQueries() throws -> [(sql: String, expected: [[String]])] {
    let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("docs/guides/analytics.md")
    let lines = try String(contentsOf: guide, encoding: .utf8).components(separatedBy: "\n")
    var queries: [(sql: String, expected: [[String]])] = []
    var index = 0
    while index < lines.count {
      guard lines[index] == #"duckdb -markdown -c ""# else {
        index += 1
        continue
      }
      var sql: [String] = []
      index += 1
      while index < lines.count, lines[index] != "\"" {
        sql.append(lines[index])
        index += 1
      }
      while index < lines.count, !lines[index].hasPrefix("|") { index += 1 }
      var table: [[String]] = []
      while index < lines.count, lines[index].hasPrefix("|") {
        let cells = lines[index].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        if !cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { table.append(cells) }
        index += 1
      }
      queries.append((sql.joined(separator: "\n"), table))
    }
    return queries
  }
}

/// Where DuckDB is, and whether this run must have it.
enum DuckDB {
  /// Set by CI: a missing DuckDB fails the analytics tests instead of skipping them.
  static let isRequired = ProcessInfo.processInfo.environment["NAVSTORE_REQUIRE_DUCKDB"] == "1"

  /// The `duckdb` on the PATH.
  static let executable: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { URL(fileURLWithPath: String($0)).appendingPathComponent("duckdb") }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
}
