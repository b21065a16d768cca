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
      queries.count == 6, "top screens, time on the last screen, paths, funnel, how people leave, time by app version")
    for query in queries {
      let rows = try run(duckDB, ["-csv", "-c", query.sql]).split(whereSeparator: \.isNewline).map { line in
        line.split(separator: ",", omittingEmptySubsequences: false).map {
          $0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
      }
      #expect(rows == query.expected, "\(query.sql)")
    }
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
