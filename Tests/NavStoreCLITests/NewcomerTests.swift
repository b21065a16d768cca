import Foundation
import NavTestSupport
import Testing

/// The small things a new user meets first on the command line.
@Suite(.waitsOnProcesses) struct NewcomerTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    #expect(try NavStoreProcess.run(["demo", "--db", "d.sqlite", "--no-wait"], in: folder).status == 0)
  }

  @Test func twoArgumentsCannotBothReadStandardInput() throws {
    let result = try navstore("append", "s-1", "--op", "@-", "--cause", "@-", stdin: "{}")
    #expect(result.status == 64)
    #expect(result.stderrLines.count == 1 && result.stderr.contains("cannot both read standard input"))
  }

  @Test func sinceTakesAPlainDateAsMidnightUTC() throws {
    let byDate = try navstore(
      "export", "--db", "d.sqlite", "--table", "sessions", "--format", "csv", "--since", "2026-11-21")
    let byTime = try navstore(
      "export", "--db", "d.sqlite", "--table", "sessions", "--format", "csv", "--since", "2026-11-21T00:00:00.000Z")
    #expect(byDate.status == 0, "\(byDate.stderr)")
    #expect(byDate.stdout == byTime.stdout && byDate.stdout.count > 100)
    #expect(
      try navstore("export", "--db", "d.sqlite", "--table", "sessions", "--format", "csv", "--since", "2026-13-01")
        .status == 64)
  }

  @Test func verifyOnAnEmptyStoreSaysSo() throws {
    #expect(try navstore("init", "--db", "e.sqlite").status == 0)
    let result = try navstore("verify", "--db", "e.sqlite")
    #expect(result.status == 0)
    #expect(result.stdoutLines == ["verified 0 sessions, 0 events: 0 problems (the store has no sessions yet)"])
  }

  @Test(arguments: [
    (["replay", "demo-tabs", "--at", "-1"], "--at must be 1 or more, not -1"),
    (["replay", "demo-tabs", "--speed", "-1"], "--speed must be from 0.001 to 1000, not -1.0"),
    (["replay", "demo-tabs", "--delay-ms", "-5"], "--delay-ms must be from 0 to 86400000 (one day), not -5"),
    (["show", "demo-tabs", "--at", "-2"], "--at must be 1 or more, not -2"),
    (["history", "demo-tabs", "--from", "-3"], "--from must be 1 or more, not -3"),
  ])
  func aNegativeNumberGetsItsRangeNotMissingValue(_ arguments: [String], _ message: String) throws {
    let result = try NavStoreProcess.run(arguments + ["--db", "d.sqlite"], in: folder)
    #expect(result.status == 64)
    #expect(result.stderrLines == ["navstore: \(message)"])
  }

  @Test func aByteOrderMarkIsReadPastAndABadLineIsNamedOnce() throws {
    let bom = Data([0xEF, 0xBB, 0xBF])
    let start =
      #"{"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}},"origin":"app","session":"s-1"}"#
    try (bom + Data((start + "\n").utf8)).write(to: folder.appendingPathComponent("bom.jsonl"))
    let imported = try navstore("import", "bom.jsonl", "--db", "b.sqlite")
    #expect(imported.status == 0, "\(imported.stderr)")
    try (bom + Data(#"{"op":"push","screen":"list"}"#.utf8)).write(to: folder.appendingPathComponent("op.json"))
    #expect(try navstore("append", "s-1", "--op", "@op.json", "--db", "b.sqlite").stdout == "2\n")
    try Data("{bad\n".utf8).write(to: folder.appendingPathComponent("bad.jsonl"))
    let bad = try navstore("import", "bad.jsonl", "--db", "new.sqlite")
    #expect(bad.stderrLines == ["navstore: line 1, column 2: invalid JSON: expected a string key in an object"])
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.sqlite").path),
      "a failed import leaves no new store")
  }

  @Test func initSaysWhatItDid() throws {
    let created = try navstore("init", "--db", "i.sqlite")
    #expect(created.stdout == "19\n" && created.stderrLines == ["navstore: created i.sqlite (schema 19)"])
    let again = try navstore("init", "--db", "i.sqlite")
    #expect(
      again.stdout == "19\n" && again.stderrLines == ["navstore: i.sqlite is already at schema 19; nothing to do"])
  }

  @Test func anUnquotedStringSaysQuotesAreMissing() throws {
    let result = try navstore("append", "s-1", "--op", #"{"op":"pop"}"#, "--cause", "notjson", "--db", "q.sqlite")
    #expect(result.status != 0)
    #expect(result.stderr.contains("a string needs its quotes"))
  }

  /// Every line of every command's help fits 80 columns (the usage line, which the argument
  /// parser writes, aside), so each example can be copied whole from a terminal.
  @Test(arguments: [
    "demo", "init", "append", "import", "sessions", "show", "history", "replay", "verify", "export", "plan", "keygen",
    "checkpoint", "prove", "forget", "prune", "report",
  ])
  func helpFitsEightyColumns(_ command: String) throws {
    let help = try NavStoreProcess.run([command, "--help"], in: folder)
    #expect(help.status == 0)
    for line in help.stdoutLines where !line.hasPrefix("USAGE:") {
      #expect(line.count <= 80, "\(command): \(line)")
    }
  }

  /// A seq conflict says what is wrong: behind the next seq, someone got there first; ahead of
  /// it, events are missing; into a new session, the history must begin at 1.
  @Test func aSeqConflictSaysWhatIsActuallyWrong() throws {
    let ahead = try navstore("append", "demo-tabs", "--op", #"{"op":"pop"}"#, "--expect-seq", "20", "--db", "d.sqlite")
    #expect(
      ahead.stderrLines == [
        "navstore: session 'demo-tabs': the event was to be seq 20, but the next seq is 16 (seqs 16 to 19 are missing before it: import the events in order, from seq 16)"
      ])
    let history = try navstore("history", "demo-tabs", "--json", "--db", "d.sqlite").stdoutLines
    try history.suffix(3).joined(separator: "\n").write(
      to: folder.appendingPathComponent("tail.jsonl"), atomically: true, encoding: .utf8)
    let fromThree = try navstore("import", "tail.jsonl", "--db", "fresh.sqlite")
    #expect(
      fromThree.stderrLines == [
        "navstore: line 1: session 'demo-tabs': the event was to be seq 13, but the next seq is 1 (the session has no events yet: its history must begin at seq 1)"
      ])
  }

  @Test func aSecondImportOfLinesWithoutSeqsSaysWhy() throws {
    let lines = [
      #"{"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}},"session":"q"}"#,
      #"{"at":"2026-11-21T10:00:01.000Z","op":{"op":"push","screen":"a"},"session":"q"}"#,
    ].joined(separator: "\n")
    try lines.write(to: folder.appendingPathComponent("noseq.jsonl"), atomically: true, encoding: .utf8)
    #expect(try navstore("import", "noseq.jsonl", "--db", "q.sqlite").status == 0)
    let again = try navstore("import", "noseq.jsonl", "--db", "q.sqlite")
    #expect(again.status != 0 && again.stderrLines.count == 1)
    #expect(
      again.stderr.contains(
        "a line without a seq is appended after the session's events, so importing a file again appends it again"))
  }

  /// A screen name with a control character keeps the output's lines: it is printed escaped.
  @Test func controlCharactersInScreenNamesArePrintedEscaped() throws {
    let start = #"{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}"#
    #expect(try navstore("append", "c-1", "--op", start, "--db", "c.sqlite").status == 0)
    #expect(
      try navstore("append", "c-1", "--op", #"{"op":"push","screen":"line\nbreak\u001b[31m"}"#, "--db", "c.sqlite")
        .status == 0)
    let history = try navstore("history", "c-1", "--db", "c.sqlite")
    #expect(history.stdoutLines.count == 2)
    #expect(history.stdoutLines.last?.hasSuffix(#"→ line\nbreak\u{1B}[31m"#) == true, "\(history.stdout)")
    let show = try navstore("show", "c-1", "--db", "c.sqlite")
    #expect(show.stdoutLines.last == #"  [1] push              line\nbreak\u{1B}[31m"#, "\(show.stdout)")
  }

  /// Wide characters take two columns: the sessions table stays aligned.
  @Test func wideCharactersKeepTheSessionsTableAligned() throws {
    let start = #"{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}"#
    for id in ["会话-1", "s-2", "🚀-3", "⌚-4"] {
      #expect(
        try navstore("append", id, "--op", start, "--at", "2026-11-21T10:00:00.000Z", "--db", "w.sqlite").status == 0)
    }
    let lines = try navstore("sessions", "--db", "w.sqlite").stdoutLines
    #expect(lines.count == 5)
    // The events column ends at the same terminal column on every line: "会话" is 4 columns,
    // so "会话-1" gets 3 spaces fewer than "s-2"; the rocket (U+1F680) and the watch (U+231A)
    // are 2 columns each (ids in SQLite's byte order).
    #expect(lines[1].hasPrefix("s-2           1  "), "\(lines)")
    #expect(lines[2].hasPrefix("⌚-4          1  "), "\(lines)")
    #expect(lines[3].hasPrefix("会话-1        1  "), "\(lines)")
    #expect(lines[4].hasPrefix("🚀-3          1  "), "\(lines)")
  }
}
