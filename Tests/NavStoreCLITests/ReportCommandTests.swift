import Foundation
import NavTestSupport
import Testing

/// `navstore report` on the demo store, as support and QA run it.
@Suite(.waitsOnProcesses) struct ReportCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    #expect(try navstore("demo", "--db", "d.sqlite").status == 0)
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
    // A restored session's row links to the event it restored, in its source's page.
    let pages = Set(links.map { String($0.prefix { $0 != "#" }) })
    #expect(pages.count == sessions && sessions == 10)
    for page in pages {
      #expect(FileManager.default.fileExists(atPath: reports.appendingPathComponent(page).path), "\(page)")
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
    #expect(result.stdoutLines == ["wrote 9 reports and reports/index.html"])
    #expect(
      result.stderrLines.count == 1
        && result.stderrLines.first?.hasPrefix("navstore: no report for session 'demo-browse-2': ") == true,
      "\(result.stderr)")
    let reports = folder.appendingPathComponent("reports")
    let index = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
    #expect(index.contains("&#10008; no report: ") && index.contains("except 1 whose report could not be made"))
    let pages = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter { $0 != "index.html" }
    #expect(pages.count == 9 && !pages.contains { $0.hasPrefix("demo-browse-2") })
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
    ["report", "s-1", "--at", "0"], ["report", "--all", "--out", "x", "--with-ancestors"],
    ["report", "s-1", "--delay-ms", "-1"], ["report", "s-1", "--delay-ms", "86400001"],
  ])
  func aMisusedReportIsRefusedBeforeItRuns(_ arguments: [String]) throws {
    let result = try NavStoreProcess.run(arguments + ["--db", "d.sqlite"], in: folder)
    #expect(result.status == 64)
    #expect(result.stderrLines.count == 1)
  }

  /// A chain of restores: each page links the one before, at the event it was restored from;
  /// `--with-ancestors` writes them all beside it, so every link opens; a session no longer
  /// held ends the chain with a line that says so.
  @Test func withAncestorsWritesThePagesItsLinksOpen() throws {
    // demo-tabs' host, the flow it hosted dropped: a restore that fits it.
    let start = #"{"routes":[{"screen":{"mainTabs":{}},"style":"root"}]}"#
    let lines = [
      #"{"session":"r1","seq":1,"at":"2026-11-21T11:00:00.000Z","op":{"op":"start","state":\#(start),"restoredFrom":{"session":"demo-tabs","seq":15}}}"#,
      #"{"session":"r2","seq":1,"at":"2026-11-21T11:10:00.000Z","op":{"op":"start","state":\#(start),"restoredFrom":{"session":"r1","seq":1}}}"#,
      #"{"session":"r3","seq":1,"at":"2026-11-21T11:20:00.000Z","op":{"op":"start","state":\#(start),"restoredFrom":{"session":"gone","seq":4}}}"#,
      #"{"session":"r4","seq":1,"at":"2026-11-21T11:30:00.000Z","op":{"op":"start","state":\#(start),"restoredFrom":{"session":"demo-tabs","seq":99}}}"#,
    ]
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("chain.jsonl"))
    #expect(try navstore("import", "chain.jsonl", "--db", "d.sqlite").status == 0)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("pages"), withIntermediateDirectories: true)

    let alone = try navstore("report", "r2", "--db", "d.sqlite", "--out", "pages/alone.html")
    #expect(alone.status == 0 && alone.stdoutLines.last?.contains("--with-ancestors") == true, "\(alone.stdout)")
    let result = try navstore("report", "r2", "--with-ancestors", "--db", "d.sqlite", "--out", "pages/r2.html")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines == [
        "wrote pages/r2.html (1 of 1 events)", "wrote pages/r1.html, the session it continues, opening at seq 1",
        "wrote pages/demo-tabs.html, the session it continues, opening at seq 15",
      ])
    for (page, link) in [("r2", "r1.html#seq=1"), ("r1", "demo-tabs.html#seq=15")] {
      let html = try String(contentsOf: folder.appendingPathComponent("pages/\(page).html"), encoding: .utf8)
      #expect(html.contains("href=\"\(link)\""), "\(page) links \(link)")
    }
    let tabs = try String(contentsOf: folder.appendingPathComponent("pages/demo-tabs.html"), encoding: .utf8)
    #expect(tabs.contains("data-focus=\"15\""))

    let broken = try navstore("report", "r3", "--with-ancestors", "--db", "d.sqlite", "--out", "pages/r3.html")
    #expect(broken.status == 0)
    #expect(
      broken.stdoutLines.last == "it continues gone, which this store does not hold (forgotten, or never uploaded)")
    // Restored from events the device never uploaded: the page opens at the last it did.
    let short = try navstore("report", "r4", "--with-ancestors", "--db", "d.sqlite", "--out", "pages/r4.html")
    #expect(short.status == 0, "\(short.stderr)")
    #expect(
      short.stdoutLines.last?.hasPrefix(
        "wrote pages/demo-tabs.html, the session it continues, opening at its last seq 15") == true,
      "\(short.stdout)")
  }

  /// The restore plans timed for the app's delay, and the page's field set to it.
  @Test func delayMillisecondsTimesThePlans() throws {
    let result = try navstore("report", "demo-tabs", "--db", "d.sqlite", "--delay-ms", "400", "--out", "tabs.html")
    #expect(result.status == 0, "\(result.stderr)")
    let html = try String(contentsOf: folder.appendingPathComponent("tabs.html"), encoding: .utf8)
    #expect(html.contains(#"id="delay" min="0" max="86400000" step="50" value="400""#))
    #expect(html.contains(#"<span class="plan-delay">400</span> ms apart"#))
    #expect(!html.contains(#"<span class="plan-delay">650</span>"#))
    // Step 3 of a plan is two delays in.
    #expect(html.contains(#"<li data-step="3"><span class="time">800 ms</span>"#))
  }

  @Test func anUnknownSessionOrSeqIsOneClearError() throws {
    let unknown = try navstore("report", "nobody", "--db", "d.sqlite")
    #expect(unknown.status != 0 && unknown.stderrLines.count == 1)
    let beyond = try navstore("report", "demo-tabs", "--db", "d.sqlite", "--at", "99")
    #expect(beyond.status != 0 && beyond.stderrLines.count == 1)
  }
}
