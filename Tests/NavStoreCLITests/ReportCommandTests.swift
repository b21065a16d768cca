import Foundation
import Testing

/// `navstore report` on the demo store, as support and QA run it.
@Suite(.waitsOnProcesses) struct ReportCommandTests {
  let folder: URL

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-report-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    #expect(try navstore("demo", "--db", "d.sqlite").status == 0)
  }

  func navstore(_ arguments: String...) throws -> NavStoreProcess.Result {
    try NavStoreProcess.run(arguments, in: folder)
  }

  @Test func allWritesAnIndexWhoseLinksAllResolve() throws {
    let result = try navstore("report", "--all", "--db", "d.sqlite", "--out", "reports")
    #expect(result.status == 0, "\(result.stderr)")
    let reports = folder.appendingPathComponent("reports")
    let index = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
    let links = try NSRegularExpression(pattern: #"href="([^"]+)""#).matches(
      in: index, range: NSRange(index.startIndex..., in: index)
    )
    .compactMap { Range($0.range(at: 1), in: index).map { String(index[$0]) } }
    let sessions = try navstore("sessions", "--db", "d.sqlite", "--json").stdoutLines.count
    #expect(links.count == sessions && sessions == 8)
    for link in links {
      #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent(link).path), "\(link)")
    }
  }

  /// A damaged session (an event that no longer applies) does not stop the other pages: the
  /// index names it with the reason, and the command fails at the end with one line.
  @Test func allGoesOnPastASessionWhoseHistoryNoLongerReplays() throws {
    try sqlite(folder.appendingPathComponent("d.sqlite").path).run(
      """
      DROP TRIGGER events_are_append_only_update;
      UPDATE events SET op = '{"op":"pop"}' WHERE session_id = 'demo-browse-2' AND seq = 2;
      """)
    let result = try navstore("report", "--all", "--db", "d.sqlite", "--out", "reports")
    #expect(result.status != 0)
    #expect(result.stdoutLines == ["wrote 7 reports and reports/index.html"])
    #expect(
      result.stderrLines.count == 1
        && result.stderrLines.first?.hasPrefix("navstore: no report for session 'demo-browse-2': ") == true,
      "\(result.stderr)")
    let reports = folder.appendingPathComponent("reports")
    let index = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(index.contains("&#10008; no report: ") && index.contains("except 1 whose report could not be made"))
    let pages = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0 != "index.html" }
    #expect(pages.count == 7 && !pages.contains { $0.hasPrefix("demo-browse-2") })
  }

  @Test func oneSessionGoesToItsSafeNameByDefault() throws {
    let result = try navstore("report", "demo-onboarding", "--db", "d.sqlite", "--at", "3")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutLines == ["wrote demo-onboarding.html (10 of 10 events)"])
    let html = try String(contentsOf: folder.appendingPathComponent("demo-onboarding.html"), encoding: .utf8)
    #expect(html.contains("data-focus=\"3\""))
  }

  @Test(arguments: [
    ["report"], ["report", "--all"], ["report", "s-1", "--all", "--out", "x"],
    ["report", "--all", "--out", "x", "--at", "3"],
    ["report", "s-1", "--at", "0"],
  ])
  func aMisusedReportIsRefusedBeforeItRuns(_ arguments: [String]) throws {
    let result = try NavStoreProcess.run(arguments + ["--db", "d.sqlite"], in: folder)
    #expect(result.status == 64)
    #expect(result.stderrLines.count == 1)
  }

  @Test func anUnknownSessionOrSeqIsOneClearError() throws {
    let unknown = try navstore("report", "nobody", "--db", "d.sqlite")
    #expect(unknown.status != 0 && unknown.stderrLines.count == 1)
    let beyond = try navstore("report", "demo-tabs", "--db", "d.sqlite", "--at", "99")
    #expect(beyond.status != 0 && beyond.stderrLines.count == 1)
  }
}
