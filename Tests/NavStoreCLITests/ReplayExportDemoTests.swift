import Foundation
import NavCore
import NavJSON
import NavTestSupport
import Testing

/// replay, export and demo, run as processes.
@Suite(.waitsOnProcesses) struct ReplayExportDemoTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
  }

  /// A session four pushes deep (five steps to replay), with screen names that need CSV quoting.
  func seed() throws {
    let screens = [#"{"numberDetail":{"number":1}}"#, #""a,b""#, #""say \"hi\"""#, #""line\nbreak""#]
    var lines = [
      #"{"session":"s","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}}"#
    ]
    for (index, screen) in screens.enumerated() {
      lines.append(
        #"{"session":"s","at":"2026-11-21T10:00:0\#(index + 1).000Z","op":{"op":"push","screen":\#(screen)}}"#)
    }
    lines.append(
      #"{"session":"t","at":"2026-11-21T11:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","screen":"x"}]}}}"#
    )
    lines.append(
      #"{"session":"t","at":"2026-11-21T11:00:07.250Z","origin":"user","op":{"op":"presentCover","screen":"y"}}"#)
    let result = try navstore(["import", "-"], stdin: lines.joined(separator: "\n"))
    try #require(result.status == 0, "\(result.stderr)")
  }

  @Test func replayPrintsEachStepAsATreeDiff() throws {
    try seed()
    let result = try navstore(["replay", "s", "--no-wait"])
    #expect(result.status == 0)
    #expect(
      result.stdoutLines == [
        "Replaying s after seq 5 under navigation-view: 5 steps, 650 ms apart, without waiting",
        "launch state:", "  stack", "    [0] root, navigation  home",
        "step 0 at 0 ms: no change",
        "step 1 at 0 ms", "  + push numberDetail(number: 1)",
        "step 2 at 650 ms", "  + push a,b",
        "step 3 at 1300 ms", #"  + push say "hi""#,
        "step 4 at 1950 ms", #"  + push line\nbreak"#,
      ])
  }

  /// What a recorded session's `start` keeps reads back in the CLI: the launch on the start's
  /// line in `history`, and the host profile its app played for, which `replay` plans under
  /// unless told otherwise. A context with only the device's key prints no empty brackets.
  @Test func theStartsLaunchAndHostProfileAreReadBack() throws {
    let home =
      #"{"routes":[{"style":"root","withNavigation":true,"screen":"home"},{"style":"push","screen":"a"},{"style":"sheet","screen":"b"}]}"#
    let launch =
      #"{"outcome":"restored","dropped":[{"path":[],"index":3,"screen":"post","routes":2,"error":"ScreenV2 has no case named 'post'"}]}"#
    let key = String(repeating: "A", count: 43)
    let lines = [
      #"{"session":"v2","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":\#(home),"restoredFrom":{"session":"v1","seq":9},"context":{"appVersion":"2.0","host":"navigation-stack-17"},"launch":\#(launch)}}"#,
      #"{"session":"bare","at":"2026-11-21T11:00:00.000Z","op":{"op":"start","state":\#(home),"context":{"deviceKey":"\#(key)"}}}"#,
    ]
    let imported = try navstore(["import", "-"], stdin: lines.joined(separator: "\n"))
    try #require(imported.status == 0, "\(imported.stderr)")

    let history = try navstore(["history", "v2"])
    #expect(history.status == 0, "\(history.stderr)")
    #expect(
      history.stdout.contains(
        "restored from v1 at seq 9; launch: restored, 2 routes dropped  [app 2.0, host navigation-stack-17]"),
      "\(history.stdout)")
    let bare = try navstore(["history", "bare"])
    #expect(bare.status == 0 && !bare.stdout.contains("[]"), "\(bare.stdout)")

    let recorded = try navstore(["replay", "v2", "--no-wait"])
    #expect(recorded.status == 0 && recorded.stdout.contains("under navigation-stack-17"), "\(recorded.stdout)")
    let told = try navstore(["replay", "v2", "--no-wait", "--host", "navigation-view"])
    #expect(told.status == 0 && told.stdout.contains("under navigation-view"), "\(told.stdout)")
    let unrecorded = try navstore(["replay", "bare", "--no-wait"])
    #expect(unrecorded.status == 0 && unrecorded.stdout.contains("under navigation-view"), "\(unrecorded.stdout)")
  }

  @Test func replayJSONLinesEndAtTheSessionsState() throws {
    try seed()
    let result = try navstore(["replay", "s", "--at", "3", "--no-wait", "--json", "--host", "navigation-stack"])
    let steps = try result.stdoutLines.map { try WireFormat.decode(ScheduledStep<JSONValue>.self, from: $0) }
    let shown = try navstore(["show", "s", "--at", "3", "--json"])
    #expect(steps.count == 2)
    #expect(steps.last?.state == (try WireFormat.decode(AnyCoordinator.self, from: shown.stdoutLines.joined())))
  }

  @Test func replayReallyWaitsAndNoWaitDoesNot() throws {
    try seed()
    // Five steps 200 ms apart: the last is due at 3 × 200 = 600 ms (at speed 1).
    var started = Date()
    let waited = try navstore(["replay", "s", "--delay-ms", "200"])
    #expect(waited.status == 0)
    #expect(Date().timeIntervalSince(started) >= 0.6)
    // At speed 4 the same plan is due at 150 ms.
    started = Date()
    _ = try navstore(["replay", "s", "--delay-ms", "200", "--speed", "4"])
    #expect(Date().timeIntervalSince(started) >= 0.15)
    // A plan due after 60 s finishes at once without waiting.
    started = Date()
    let immediate = try navstore(["replay", "s", "--delay-ms", "20000", "--no-wait"])
    #expect(immediate.status == 0)
    #expect(Date().timeIntervalSince(started) < 20)
  }

  /// Ctrl-C (SIGINT) and SIGTERM stop a replay with one line and the shell's status for the
  /// signal: 130 and 143.
  @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
  func aSignalStopsAReplayCleanly(_ signal: Int32, _ status: Int32) throws {
    try seed()
    let process = Process()
    process.executableURL = NavStoreProcess.binary
    process.arguments = ["replay", "s", "--delay-ms", "3000"]
    process.currentDirectoryURL = folder
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    let started = Date()
    try process.run()
    usleep(500_000)
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(Date().timeIntervalSince(started) < 3, "the replay ran on after the signal")
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationReason == .exit && process.terminationStatus == status)
    #expect(stderr == "navstore: replay interrupted before step 2 of 5\n")
    #expect(stdout.hasSuffix("step 1 at 0 ms\n  + push numberDetail(number: 1)\n"))
  }

  @Test(arguments: ["events", "sessions", "screen-views", "transitions"])
  func csvParsesBackToTheJSONLinesRows(table: String) throws {
    try seed()
    let csv = try navstore(["export", "--table", table, "--format", "csv"])
    let jsonl = try navstore(["export", "--table", table, "--format", "jsonl"])
    #expect(csv.status == 0 && jsonl.status == 0)
    let rows = try RFC4180.parse(csv.stdout)
    let header = try #require(rows.first)
    let objects = try jsonl.stdoutLines.map { try JSONParser.parse($0) }
    #expect(rows.count - 1 == objects.count)
    var previous: JSONValue?
    for (row, object) in zip(rows.dropFirst(), objects) {
      let members = try #require(object.objectValue)
      for (column, field) in zip(header, row) {
        // The wire format's events say nothing of when the store received them.
        if table == "events", column == "received" { continue }
        let expected: String
        if table == "events" {
          expected = Self.eventColumn(column, of: object, after: previous)
        } else {
          switch members[column] {
          case .string(let text)?: expected = text
          case .number(let number)?: expected = String(Int64(number))
          case .bool(let flag)?: expected = flag ? "true" : "false"
          default: expected = ""
          }
        }
        #expect(field == expected, "\(table).\(column)")
      }
      previous = object
    }
    // A flat table's JSON Lines name the CSV's columns, in the CSV's order.
    if table != "events" {
      for line in jsonl.stdoutLines {
        let keys = line.matches(of: /"([a-z_]+)":/).map { String($0.output.1) }
        #expect(keys == header, "\(table): \(line)")
      }
    }
  }

  /// The events export's JSON Lines are wire-format events; its CSV flattens them.
  static func eventColumn(_ column: String, of event: JSONValue, after previous: JSONValue?) -> String {
    let members = event.objectValue ?? [:]
    let operation = members["op"] ?? .null
    switch column {
    case "occurred_at": return members["at"]?.stringValue ?? ""
    case "clock_went_back":
      // Earlier than the session's event before it (RFC 3339 UTC times compare as text).
      guard let before = previous?.objectValue, before["session"] == members["session"],
        let earlier = before["at"]?.stringValue, let time = members["at"]?.stringValue
      else { return "false" }
      return time < earlier ? "true" : "false"
    case "seq": return members["seq"].flatMap { if case .number(let n) = $0 { String(Int64(n)) } else { nil } } ?? ""
    case "op": return operation.objectValue?["op"]?.stringValue ?? ""
    case "screen": return operation.objectValue?["screen"].map(ScreenName.of) ?? ""
    case "path": return operation.objectValue?["path"]?.canonicalString ?? "[]"
    case "operation": return operation.canonicalString
    case "cause": return members["cause"]?.canonicalString ?? ""
    default: return members[column]?.stringValue ?? ""
    }
  }

  @Test func screenViewDurationsAddUpToEachSessionsSpan() throws {
    try seed()
    let views = try navstore(["export", "--table", "screen-views", "--format", "jsonl"]).stdoutLines.map {
      try JSONParser.parse($0)
    }
    let sessions = try navstore(["export", "--table", "sessions", "--format", "jsonl"]).stdoutLines.map {
      try JSONParser.parse($0)
    }
    #expect(sessions.count == 2)
    for session in sessions {
      let id = session.objectValue?["session"]
      let total = views.filter { $0.objectValue?["session"] == id }.compactMap { view -> Double? in
        if case .number(let duration)? = view.objectValue?["duration_ms"] { duration } else { nil }
      }.reduce(0, +)
      #expect(.number(total) == session.objectValue?["foreground_ms"], "\(id ?? .null)")
    }
    #expect(views.filter { $0.objectValue?["exited_at"] == .null }.count == 2, "one view per session is still visible")
  }

  @Test func exportFiltersAndFiles() throws {
    try seed()
    let out = try navstore(["export", "--table", "transitions", "--format", "csv", "--session", "t", "--out", "t.csv"])
    #expect(out.status == 0 && out.stdout.isEmpty)
    let written = try String(contentsOf: folder.appendingPathComponent("t.csv"), encoding: .utf8)
    #expect(
      written
        == "session,from_screen,to_screen,op,occurred_at,origin,seq,clock_went_back,from_path,to_path,from_payload,"
        + "to_payload,restored,cause_action,cause,received\r\n"
        // One import, one write: both rows were received under number 2.
        + #"t,,x,start,2026-11-21T11:00:00.000Z,app,1,false,,/x,,"""x""",false,,,2"# + "\r\n"
        + #"t,x,y,presentCover,2026-11-21T11:00:07.250Z,user,2,false,/x,/x/y,"""x""","""y""",false,,,2"# + "\r\n"
    )
    // A cursor ahead of the store's: the store was restored or replaced since; nothing is written.
    let ahead = try navstore([
      "export", "--table", "transitions", "--format", "csv", "--after", "99", "--cursor-out", "c", "--out", "a.csv",
    ])
    #expect(ahead.status == 1 && ahead.stdout.isEmpty)
    #expect(
      ahead.stderrLines == [
        "navstore: --after 99 is ahead of this store's cursor (2): the store was restored or replaced since; export everything again, without --after"
      ])
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.csv").path))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c").path))
    let nowhere = try navstore([
      "export", "--table", "transitions", "--format", "csv", "--cursor-out", "nowhere/c", "--out", "a.csv",
    ])
    #expect(
      nowhere.status == 1
        && nowhere.stderrLines == [
          "navstore: --cursor-out: cannot write 'nowhere/c' (does its folder exist and is it writable?)"
        ])
    // A complete export writes its cursor, the store's: one import, one write, number 2.
    #expect(
      try navstore(["export", "--table", "transitions", "--format", "csv", "--cursor-out", "c", "--out", "a.csv"])
        .stderrLines == ["navstore: cursor 2 (the next pull: --after 2)"])
    #expect(try String(contentsOf: folder.appendingPathComponent("c"), encoding: .utf8) == "2\n")
    let since = try navstore([
      "export", "--table", "events", "--format", "jsonl", "--since", "2026-11-21T10:00:03.000Z",
    ])
    #expect(since.stdoutLines.count == 4)
    let until = try navstore([
      "export", "--table", "events", "--format", "jsonl", "--since", "2026-11-21T10:00:03.000Z", "--until",
      "2026-11-21T11:00:00.000Z",
    ])
    #expect(until.status == 0 && until.stdoutLines.count == 3, "\(until.stdout)")
  }

  @Test(arguments: [
    (
      ["export", "--table", "funnels", "--format", "csv"],
      "navstore: The value 'funnels' is invalid for '--table <table>'. Please provide one of 'events', 'sessions', 'screen-views' or 'transitions'."
    ),
    (
      ["export", "--table", "events", "--format", "xml"],
      "navstore: The value 'xml' is invalid for '--format <format>'. Please provide one of 'csv', 'jsonl', 'segment' or 'otlp'."
    ),
    (
      ["export", "--table", "events", "--format", "csv", "--session", "nobody"],
      "navstore: no session 'nobody' in the store (list them with 'navstore sessions')"
    ),
    (
      ["export", "--table", "events", "--format", "csv", "--out", "/no/such/folder/x.csv"],
      "navstore: --out: cannot write '/no/such/folder/x.csv' (does its folder exist and is it writable?)"
    ),
    (
      ["export", "--table", "events", "--format", "csv", "--since", "2026-11-21", "--until", "2026-11-20"],
      "navstore: --until (2026-11-20T00:00:00.000Z) must not be before --since (2026-11-21T00:00:00.000Z)"
    ),
    (
      ["export", "--table", "events", "--format", "csv", "--keep-payload-fields", "id"],
      "navstore: --keep-payload-fields keeps fields of what --omit-payloads leaves out; add --omit-payloads"
    ),
    (
      ["export", "--table", "events", "--format", "csv", "--omit-payloads", "--keep-payload-fields", "a.b,,c"],
      "navstore: --keep-payload-fields: '' is not a path of keys joined by dots (productDetail.id)"
    ),
    (
      ["export", "--table", "events", "--schema", "--format", "csv"],
      "navstore: --schema prints the table's columns and their types: it takes only --table and --out"
    ),
    (
      ["export", "--table", "events", "--format", "csv", "--app-version", ""],
      "navstore: --app-version needs a value, as the sessions' context gives it"
    ),
    (["replay", "nobody"], "navstore: no session 'nobody' in the store (list them with 'navstore sessions')"),
    (["replay", "s", "--at", "99"], "navstore: session 's' has events up to seq 5; there is no seq 99"),
    (["replay", "s", "--speed", "0"], "navstore: --speed must be from 0.001 to 1000, not 0.0"),
    (["replay", "s", "--speed", "1e-20"], "navstore: --speed must be from 0.001 to 1000, not 1e-20"),
  ])
  func badInputIsOneLineOnStderr(_ arguments: [String], _ message: String) throws {
    try seed()
    let result = try navstore(arguments)
    #expect(result.status != 0)
    #expect(result.stderrLines == [message])
  }

  @Test func theDemoBuildsAStoreThatVerifies() throws {
    let demo = try navstore(["demo", "--no-wait"])
    #expect(demo.status == 0, "\(demo.stderr)")
    #expect(demo.stdoutLines.first == "Built navstore-demo.sqlite: 10 sessions, 94 events of a sample app.")
    #expect(demo.stdout.contains("Try next:"))
    let verify = try navstore(["verify", "--db", "navstore-demo.sqlite"])
    #expect(verify.status == 0)
    #expect(verify.stdoutLines == ["verified 10 sessions, 94 events: 0 problems"])
    let verbose = try navstore(["verify", "--db", "navstore-demo.sqlite", "--verbose"])
    #expect(verbose.stdoutLines.count == 11)
    #expect(verbose.stdoutLines.dropLast().allSatisfy { $0.contains(": ok (") })
    // Running it again rebuilds the same store.
    #expect(try navstore(["demo", "--no-wait"]).stdout == demo.stdout)
    // A store holding other sessions is never replaced.
    try seed()
    let refused = try navstore(["demo", "--db", "navstore.sqlite"])
    #expect(
      refused.stderrLines == [
        "navstore: 'navstore.sqlite' holds sessions that are not the demo's; give the demo its own --db"
      ])
  }
}

/// A small RFC 4180 reader for the tests: quoted fields, doubled quotes, CRLF records.
enum RFC4180 {
  struct Malformed: Error {}

  static func parse(_ text: String) throws -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text.unicodeScalars)[...]
    while let character = characters.popFirst() {
      if quoted {
        if character == "\"" {
          if characters.first == "\"" {
            field.unicodeScalars.append("\"")
            characters.removeFirst()
          } else {
            quoted = false
          }
        } else {
          field.unicodeScalars.append(character)
        }
      } else if character == "\"" {
        guard field.isEmpty else { throw Malformed() }
        quoted = true
      } else if character == "," {
        row.append(field)
        field = ""
      } else if character == "\r" {
        guard characters.popFirst() == "\n" else { throw Malformed() }
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      } else {
        field.unicodeScalars.append(character)
      }
    }
    guard !quoted, field.isEmpty, row.isEmpty else { throw Malformed() }
    return rows
  }
}
