import Foundation
import Testing

/// Issue 18's small things, as a new user meets them on the command line.
@Suite struct NewcomerTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-newcomer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func navstore(_ arguments: String..., stdin: String = "") throws -> NavStoreProcess.Result {
    try NavStoreProcess.run(arguments, stdin: stdin, in: folder)
  }

  @Test func twoArgumentsCannotBothReadStandardInput() throws {
    let result = try navstore("append", "s-1", "--op", "@-", "--cause", "@-", stdin: "{}")
    #expect(result.status == 64)
    #expect(result.stderrLines.count == 1 && result.stderr.contains("cannot both read standard input"))
  }

  @Test func sinceTakesAPlainDateAsMidnightUTC() throws {
    #expect(try navstore("demo", "--db", "d.sqlite", "--no-wait").status == 0)
    let byDate = try navstore("export", "--db", "d.sqlite", "--table", "sessions", "--format", "csv", "--since", "2026-11-21")
    let byTime = try navstore("export", "--db", "d.sqlite", "--table", "sessions", "--format", "csv", "--since", "2026-11-21T00:00:00.000Z")
    #expect(byDate.status == 0, "\(byDate.stderr)")
    #expect(byDate.stdout == byTime.stdout && byDate.stdout.count > 100)
    #expect(try navstore("export", "--db", "d.sqlite", "--table", "sessions", "--format", "csv", "--since", "2026-13-01").status == 64)
  }

  @Test func verifyOnAnEmptyStoreSaysSo() throws {
    #expect(try navstore("init", "--db", "e.sqlite").status == 0)
    let result = try navstore("verify", "--db", "e.sqlite")
    #expect(result.status == 0)
    #expect(result.stdoutLines == ["verified 0 sessions, 0 events: 0 problems (the store has no sessions yet)"])
  }
}
