import Foundation
import NavTestSupport
import Testing

/// `navstore export --omit-payloads`, as an analyst's export is made.
@Suite(.waitsOnProcesses) struct ExportPrivacyCommandTests {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    #expect(try NavStoreProcess.run(["demo", "--db", "d.sqlite"], in: folder).status == 0)
  }

  @Test func theEventsCSVKeepsItsColumnsWithOperationAndCauseEmpty() throws {
    let full = try NavStoreProcess.run(
      ["export", "--db", "d.sqlite", "--table", "events", "--format", "csv"], in: folder)
    let omitted = try NavStoreProcess.run(
      ["export", "--db", "d.sqlite", "--table", "events", "--format", "csv", "--omit-payloads"], in: folder)
    #expect(omitted.status == 0)
    // CSV rows end in CRLF, which Swift reads as one character.
    let fullRows = full.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    let omittedRows = omitted.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(omittedRows.first == fullRows.first, "the same header")
    #expect(omittedRows.count == fullRows.count && omittedRows.count > 60)
    #expect(full.stdout.contains("\"\"number\"\":"), "the demo's payloads are in the full export")
    #expect(!omitted.stdout.contains("\"\"number\"\":"))
    // A row ends with ",<operation>,<cause>,<hash>,<clock_went_back>,<received>": both empty.
    #expect(
      omittedRows.dropFirst().allSatisfy {
        $0.range(of: #",,,[0-9a-f]{64},(true|false),[0-9]+$"#, options: .regularExpression) != nil
      })
  }

  @Test func theEventsJSONLinesAreRefusedBeforeAnythingRuns() throws {
    let refused = try NavStoreProcess.run(
      ["export", "--db", "d.sqlite", "--table", "events", "--format", "jsonl", "--omit-payloads"], in: folder)
    #expect(refused.status == 64)
    #expect(
      refused.stderrLines == [
        "navstore: --omit-payloads: the events' JSON Lines are whole wire-format events; use --format csv"
      ])
  }
}
