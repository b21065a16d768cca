import Foundation
import NavCore
import NavTestSupport
import NavTesting
import Testing

/// `navstore fixture`: a ticket's session as a regression test's input, which NavTesting replays.
@Suite(.waitsOnProcesses) struct FixtureCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
  }

  /// `s-1`, with a personal context, and `s-2` restored from it: a sheet listed by an action,
  /// a push without one, the user's back swipe, and an action that dismisses.
  func seedSessions() throws {
    let lines = [
      #"{"session":"s-1","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]},"#
        + #""context":{"appVersion":"2.0","userId":"user-77","host":"navigation-stack-17","app":{"plan":"pro"}}},"cause":"launched"}"#,
      #"{"session":"s-1","at":"2026-11-21T10:00:01.000Z","op":{"op":"presentSheet","withNavigation":true,"screen":"numbersList"},"cause":{"listTapped":{}}}"#,
      #"{"session":"s-1","at":"2026-11-21T10:00:02.000Z","op":{"op":"push","screen":{"numberDetail":{"number":3}}}}"#,
      #"{"session":"s-1","at":"2026-11-21T10:00:03.000Z","origin":"user","op":{"op":"pop"}}"#,
      #"{"session":"s-2","at":"2026-11-21T11:00:00.000Z","op":{"op":"start","restoredFrom":{"session":"s-1","seq":4},"#
        + #""state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"},{"style":"sheet","withNavigation":true,"screen":"numbersList"}]},"#
        + #""context":{"userId":"user-77","host":"navigation-stack-17"}}}"#,
      #"{"session":"s-2","at":"2026-11-21T11:00:01.000Z","op":{"op":"dismiss"},"cause":{"closeTapped":{}}}"#,
    ]
    try (lines.joined(separator: "\n") + "\n").write(
      to: folder.appendingPathComponent("seed.jsonl"), atomically: true, encoding: .utf8)
    let imported = try navstore("import", "seed.jsonl")
    #expect(imported.status == 0, "\(imported.stderr)")
  }

  @Test func aFixtureLeavesOutWhoTheUserIsAndKeepsWhatAReplayReads() throws {
    try seedSessions()
    let fixture = try navstore("fixture", "s-2", "--out", "ticket.jsonl")
    #expect(fixture.status == 0, "\(fixture.stderr)")
    #expect(
      Array(fixture.stdoutLines.prefix(2)) == [
        "fixture of 2 sessions (s-1, s-2) written to ticket.jsonl",
        "left out: userId, deviceKey, app and the hashes (--keep-personal keeps them)",
      ])
    // The test printed is the app guide's (which the docs tests compile and run), named for the
    // session and its file.
    let guide = try String(
      contentsOf: Self.checkout.appendingPathComponent("docs/guides/restoring-in-an-app.md"), encoding: .utf8)
    let guideTest = try #require(
      guide.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        .first { $0.hasPrefix("@Test @MainActor func ticket4711()") })
    let printed = fixture.stdoutLines.drop { !$0.hasPrefix("  @Test") }.map { String($0.dropFirst(2)) }
    #expect(
      printed
        == guideTest.replacingOccurrences(of: "ticket4711", with: "replaysS2")
        .replacingOccurrences(of: "ticket-4711.jsonl", with: "ticket.jsonl").split(separator: "\n").map(String.init),
      "\(fixture.stdout)")
    let text = try String(contentsOf: folder.appendingPathComponent("ticket.jsonl"), encoding: .utf8)
    for personal in ["user-77", "userId", "\"plan\"", "\"hash\""] {
      #expect(text.firstRange(of: personal) == nil, "\(personal) in \(text)")
    }
    for kept in [
      #""appVersion":"2.0""#, #""host":"navigation-stack-17""#, #""cause":{"listTapped":{}}"#, #""origin":"user""#,
    ] {
      #expect(text.firstRange(of: kept) != nil, "\(kept) not in \(text)")
    }

    // What the app's test does with it: the restore checked against its source, on the
    // recorded host, then every action through the app's logic.
    let recorded = try RecordedSession(contentsOf: folder.appendingPathComponent("ticket.jsonl").path)
    #expect(recorded.id.rawValue == "s-2")
    let report = try SessionReplay(recorded, screens: JSONValue.self, actions: JSONValue.self).run(
      reducer: { state, action in
        guard action == .object(["closeTapped": .object([:])]) else { throw Unknown() }
        try state.apply(Coordinator.diff(from: state, to: .stack([.root(.string("home"), withNavigation: true)]))[0])
      })
    #expect(report.actionsMatched == 1 && report.restoreChecked && report.restoreSteps == 2, "\(report)")
  }

  @Test func keptWholeAFixtureIsTheBundle() throws {
    try seedSessions()
    #expect(try navstore("fixture", "s-2", "--out", "whole.jsonl", "--keep-personal").status == 0)
    #expect(try navstore("bundle", "s-2", "--out", "bundle.jsonl").status == 0)
    let whole = try Data(contentsOf: folder.appendingPathComponent("whole.jsonl"))
    let bundle = try Data(contentsOf: folder.appendingPathComponent("bundle.jsonl"))
    #expect(!whole.isEmpty && whole == bundle)
  }

  @Test func aFixtureNeverWritesOverAFileAndLeavesNothingWhenItFails() throws {
    try seedSessions()
    try Data("mine".utf8).write(to: folder.appendingPathComponent("taken.jsonl"))
    let taken = try navstore("fixture", "s-2", "--out", "taken.jsonl")
    #expect(taken.status == 1 && taken.stderr.firstRange(of: "already exists") != nil, "\(taken.stderr)")
    #expect(try String(contentsOf: folder.appendingPathComponent("taken.jsonl"), encoding: .utf8) == "mine")
    let unknown = try navstore("fixture", "nobody", "--out", "nobody.jsonl")
    #expect(unknown.status == 1, "\(unknown.stdout)")
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("nobody") }
    #expect(left.isEmpty, "\(left)")
  }

  struct Unknown: Error {}

  /// The checkout this test was built from.
  static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
}
