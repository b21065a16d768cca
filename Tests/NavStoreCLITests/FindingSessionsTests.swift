import Foundation
import NavTestSupport
import Testing

/// Support finding a session on the demo store: by app version, time, a screen shown and
/// verification, latest first, limited; reading it in another time zone.
@Suite(.waitsOnProcesses) struct FindingSessionsTests {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    let demo = try NavStoreProcess.run(["demo", "--no-wait", "--db", "demo.sqlite"], in: folder)
    try #require(demo.status == 0, "\(demo.stderr)")
  }

  func ids(_ arguments: String...) throws -> [String] {
    let result = try NavStoreProcess.run(["sessions", "--db", "demo.sqlite", "--json"] + arguments, in: folder)
    try #require(result.status == 0, "\(result.stderr)")
    return try result.stdoutLines.map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["session"] as? String ?? "?"
    }
  }

  @Test func byAppVersionTimeAndAScreenShown() throws {
    #expect(try ids("--app-version", "2.3.0") == ["demo-browse-2", "demo-browse-4"])
    #expect(
      try ids("--app-version", "2.3.1", "--os-version", "18.1")
        == ["demo-browse-5", "demo-killed", "demo-killed-relaunch", "demo-onboarding"])
    #expect(
      try ids("--since", "2026-11-21T09:50:00.000Z", "--until", "2026-11-21T10:05:00.000Z")
        == ["demo-browse-3", "demo-browse-4"])
    #expect(try ids("--screen", "settings") == ["demo-tabs"])
    #expect(try ids("--device", "iPad14,1", "--screen", "result") == ["demo-tabs"])
    #expect(try ids("--user", "install-nobody").isEmpty)
  }

  @Test func latestFirstAndLimited() throws {
    #expect(try ids("--sort", "last", "--limit", "3") == ["demo-killed-relaunch", "demo-killed", "demo-browse-5"])
    #expect(try ids("--limit", "2") == ["demo-browse-1", "demo-browse-2"])
  }

  @Test func onlyTheSessionsThatFailVerification() throws {
    #expect(try ids("--failing").isEmpty)
    let store = folder.appendingPathComponent("demo.sqlite").path
    try sqlite(store).run(
      "DROP TRIGGER events_are_append_only_update; UPDATE events SET at = at + 1 WHERE session_id = 'demo-tabs' AND seq = 3"
    )
    #expect(try ids("--failing") == ["demo-tabs"])
  }

  @Test func byWhatTheLaunchDid() throws {
    let state = #"{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}"#
    // The tabs' host, the flow it hosted dropped: a restore of demo-tabs fits its state.
    let tabsHost = #"{"routes":[{"style":"root","screen":{"mainTabs":{}}}]}"#
    let lines = [
      #"{"session":"update","at":"2026-11-22T08:00:00.000Z","origin":"app","op":{"op":"start","state":\#(tabsHost),"restoredFrom":{"session":"demo-tabs","seq":3},"launch":{"outcome":"restored","dropped":[{"path":[],"index":1,"screen":"post","routes":2,"error":"gone"}]}}}"#,
      #"{"session":"link","at":"2026-11-22T08:01:00.000Z","origin":"app","op":{"op":"start","state":\#(state),"launch":{"outcome":"declined","reason":"notification"}}}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("launches.jsonl"), atomically: true, encoding: .utf8)
    let imported = try NavStoreProcess.run(["import", "launches.jsonl", "--db", "demo.sqlite"], in: folder)
    try #require(imported.status == 0, "\(imported.stderr)")
    #expect(try ids("--dropped-routes") == ["update"])
    #expect(try ids("--launch", "declined") == ["link"])
    #expect(try ids("--launch", "restored", "--restored") == ["demo-killed-relaunch", "update"])
    #expect(try ids("--launch", "fresh").isEmpty)
    let history = try NavStoreProcess.run(["history", "update", "--db", "demo.sqlite"], in: folder)
    #expect(
      history.stdoutLines.last?.hasSuffix("dropped route 1 (post) in the top coordinator, with 1 more route: gone")
        == true)
    let wrong = try NavStoreProcess.run(["sessions", "--db", "demo.sqlite", "--launch", "crashed"], in: folder)
    #expect(wrong.status == 64)
    #expect(wrong.stderr.contains("--launch must be one of restored, restoredRoots, fresh, declined, not 'crashed'"))
  }

  @Test func theListingAndHistoryReadInATimeZone() throws {
    let listed = try NavStoreProcess.run(
      ["sessions", "--db", "demo.sqlite", "--app-version", "2.2.0", "--tz", "Europe/Berlin"], in: folder)
    #expect(listed.stdoutLines.last?.contains("2026-11-21T10:15:00.000+01:00  2026-11-21T10:26:13.900+01:00") == true)
    let history = try NavStoreProcess.run(
      ["history", "demo-tabs", "--db", "demo.sqlite", "--to", "1", "--tz", "America/New_York"], in: folder)
    #expect(history.stdoutLines.first?.hasPrefix("2026-11-21T04:15:00.000-05:00      1  app   start") == true)
    #expect(
      try NavStoreProcess.run(["history", "demo-tabs", "--db", "demo.sqlite", "--to", "1"], in: folder).stdoutLines
        .first?
        .hasPrefix("2026-11-21T09:15:00.000Z") == true, "UTC when the output is not a terminal")
    let wrong = try NavStoreProcess.run(["sessions", "--db", "demo.sqlite", "--tz", "Mars/Base"], in: folder)
    #expect(wrong.status == 64)
    #expect(wrong.stderr.contains("--tz: 'Mars/Base' is not a time zone"))
  }
}
