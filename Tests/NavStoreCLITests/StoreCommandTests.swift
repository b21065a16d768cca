import Foundation
import NavCore
import NavTestSupport
import Testing

/// The store commands, run as processes against a store in a temporary folder.
@Suite(.waitsOnProcesses) struct StoreCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
  }

  static let start = #"{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}"#

  func seedSession() throws {
    #expect(try navstore("append", "s-1", "--op", Self.start, "--at", "2026-11-21T10:00:00.000Z").stdout == "1\n")
    #expect(
      try navstore(
        "append", "s-1", "--op", #"{"op":"presentSheet","withNavigation":true,"screen":"numbersList"}"#, "--at",
        "2026-11-21T10:00:01.000Z", "--cause", #"{"listTapped":{}}"#
      ).stdout == "2\n")
    #expect(
      try navstore(
        "append", "s-1", "--op", #"{"op":"push","screen":{"numberDetail":{"number":3}}}"#, "--at",
        "2026-11-21T10:00:02.500Z"
      ).stdout == "3\n")
    #expect(
      try navstore(
        "append", "s-1", "--op", #"{"op":"pop"}"#, "--origin", "user", "--expect-seq", "4", "--at",
        "2026-11-21T10:00:05.000Z"
      ).stdout == "4\n")
  }

  @Test func initPrintsTheSchemaVersion() throws {
    let result = try navstore("init", "--db", "custom.sqlite")
    #expect(result.status == 0)
    #expect(result.stdout == "19\n")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("custom.sqlite").path))
  }

  @Test func backupWritesANewFileThatEveryCommandOpens() throws {
    try seedSession()
    let backup = try navstore("backup", "--out", "ticket.sqlite")
    #expect(backup.status == 0)
    #expect(backup.stdoutLines == ["backup of 1 session and 4 events written to ticket.sqlite"])
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ticket.sqlite-wal").path))
    #expect(try navstore("verify", "--db", "ticket.sqlite").stdoutLines == ["verified 1 session, 4 events: 0 problems"])
    #expect(
      try navstore("history", "s-1", "--json", "--db", "ticket.sqlite").stdout
        == navstore("history", "s-1", "--json").stdout)
    let again = try navstore("backup", "--out", "ticket.sqlite")
    #expect(again.status == 1)
    #expect(
      again.stderrLines == [
        "navstore: 'ticket.sqlite' already exists; a backup or a bundle is written to a new file, never over one"
      ])
  }

  @Test func bundleWritesASessionWithTheOnesItContinues() throws {
    try seedSession()
    #expect(
      try navstore(
        "append", "s-2", "--op",
        #"{"op":"start","restoredFrom":{"session":"s-1","seq":4},"state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}"#,
        "--at", "2026-11-21T11:00:00.000Z"
      ).status == 0)
    let bundle = try navstore("bundle", "s-2", "--out", "ticket.jsonl")
    #expect(bundle.status == 0, "\(bundle.stderr)")
    #expect(bundle.stdoutLines == ["bundle of 2 sessions (s-1, s-2) written to ticket.jsonl"])
    #expect(try navstore("import", "ticket.jsonl", "--db", "ticket.sqlite").status == 0)
    #expect(
      try navstore("verify", "--db", "ticket.sqlite").stdoutLines == ["verified 2 sessions, 5 events: 0 problems"])
    #expect(
      try navstore("history", "s-2", "--json", "--db", "ticket.sqlite").stdout
        == navstore("history", "s-2", "--json").stdout)
    let again = try navstore("bundle", "s-1", "--out", "ticket.jsonl")
    #expect(again.status == 1)
    #expect(
      again.stderrLines == [
        "navstore: 'ticket.jsonl' already exists; a backup or a bundle is written to a new file, never over one"
      ])
  }

  @Test func aSessionFromAppendToVerify() throws {
    try seedSession()
    let sessions = try navstore("sessions", "--json")
    #expect(
      sessions.stdoutLines == [
        #"{"session":"s-1","events":4,"first_at":"2026-11-21T10:00:00.000Z","last_at":"2026-11-21T10:00:05.000Z","duration_ms":5000,"depth":2,"restored_from_session":null,"restored_from_seq":null,"clock_jumps":0,"app_version":null,"app_build":null,"os_name":null,"os_version":null,"device_model":null,"locale":null,"time_zone":null,"user_id":null,"app_context":null,"foreground_ms":5000,"phase":"foreground","launch":null,"launch_reason":null,"dropped_routes":0,"local_start":null,"received":5,"journey_id":"s-1","screen_count":4}"#
      ])
    let show = try navstore("show", "s-1")
    #expect(
      show.stdoutLines == [
        "session s-1 after seq 4", "stack", "  [0] root, navigation   home", "  [1] sheet, navigation  numbersList",
      ])
    let shown = try navstore("show", "s-1", "--at", "3", "--json")
    let state = try WireFormat.decode(AnyCoordinator.self, from: shown.stdout.trimmingCharacters(in: .newlines))
    #expect(state.routes?.count == 3)
    let history = try navstore("history", "s-1")
    #expect(
      history.stdoutLines == [
        "2026-11-21T10:00:00.000Z      1  app   start with a stack of 1 route  → home",
        "2026-11-21T10:00:01.000Z      2  app   present sheet numbersList with navigation  → numbersList  because listTapped",
        "2026-11-21T10:00:02.500Z      3  app   push numberDetail  → numberDetail(number: 3)",
        "2026-11-21T10:00:05.000Z      4  user  pop  → numbersList",
      ])
    let verify = try navstore("verify")
    #expect(verify.status == 0)
    #expect(verify.stdout == "verified 1 session, 4 events: 0 problems\n")
    #expect(
      try navstore("verify", "--verbose").stdoutLines == [
        "s-1: ok (4 events)", "verified 1 session, 4 events: 0 problems",
      ])
  }

  @Test func historyJSONImportsIntoAnotherStoreAndVerifies() throws {
    try seedSession()
    let exported = try navstore("history", "s-1", "--json")
    #expect(exported.stdoutLines.count == 4)
    let events = try exported.stdoutLines.map { try WireFormat.decode(AnyEvent.self, from: $0) }
    #expect(events.allSatisfy { $0.hash?.count == 64 })
    let imported = try navstore("import", "-", "--db", "copy.sqlite", stdin: exported.stdout)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout == "imported 4 events into 1 session\n")
    let again = try navstore("import", "-", "--db", "copy.sqlite", stdin: exported.stdout)
    #expect(again.stdout == "imported 0 events into 1 session (4 already stored, skipped)\n")
    #expect(try navstore("history", "s-1", "--json", "--db", "copy.sqlite").stdout == exported.stdout)
  }

  @Test func aContinuationLinkSurvivesListingExportImportAndVerify() throws {
    try seedSession()
    let start =
      #"{"op":"start","restoredFrom":{"session":"s-1","seq":4},"state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"},{"style":"sheet","withNavigation":true,"screen":"numbersList"}]}}"#
    #expect(try navstore("append", "s-2", "--op", start, "--at", "2026-11-22T08:00:00.000Z").stdout == "1\n")
    let listed = try navstore("sessions", "--json")
    #expect(
      listed.stdoutLines.last
        == #"{"session":"s-2","events":1,"first_at":"2026-11-22T08:00:00.000Z","last_at":"2026-11-22T08:00:00.000Z","duration_ms":0,"depth":2,"restored_from_session":"s-1","restored_from_seq":4,"clock_jumps":0,"app_version":null,"app_build":null,"os_name":null,"os_version":null,"device_model":null,"locale":null,"time_zone":null,"user_id":null,"app_context":null,"foreground_ms":0,"phase":"foreground","launch":null,"launch_reason":null,"dropped_routes":0,"local_start":null,"received":6,"journey_id":"s-1","screen_count":1}"#
    )
    #expect(try navstore("sessions").stdoutLines.last?.hasSuffix("  s-1 at seq 4") == true)
    let csv = try navstore("export", "--table", "sessions", "--format", "csv")
    #expect(
      csv.stdout.components(separatedBy: "\r\n") == [
        "session,events,first_at,last_at,duration_ms,depth,restored_from_session,restored_from_seq,clock_jumps,app_version,app_build,os_name,os_version,device_model,locale,time_zone,user_id,app_context,foreground_ms,phase,launch,launch_reason,dropped_routes,local_start,received,journey_id,screen_count",
        // Each append its own write: s-1's last was number 5, s-2's number 6; s-2 continues s-1's journey.
        "s-1,4,2026-11-21T10:00:00.000Z,2026-11-21T10:00:05.000Z,5000,2,,,0,,,,,,,,,,5000,foreground,,,0,,5,s-1,4",
        "s-2,1,2026-11-22T08:00:00.000Z,2026-11-22T08:00:00.000Z,0,2,s-1,4,0,,,,,,,,,,0,foreground,,,0,,6,s-1,1",
        "",
      ])
    // The events export carries the link inside the hashed start event, into another store.
    let events = try navstore("export", "--table", "events", "--format", "jsonl")
    #expect(events.stdout.contains(#""restoredFrom":{"seq":4,"session":"s-1"}"#))
    let imported = try navstore("import", "-", "--db", "copy.sqlite", stdin: events.stdout)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try navstore("verify", "--db", "copy.sqlite").status == 0)
    // The copy holds the same sessions, received in one write of its own.
    func sameButReceived(_ text: String) -> String {
      text.replacingOccurrences(of: #""received":[0-9]+"#, with: "", options: .regularExpression)
    }
    #expect(
      sameButReceived(try navstore("sessions", "--json", "--db", "copy.sqlite").stdout)
        == sameButReceived(listed.stdout))
    #expect(try navstore("history", "s-2", "--db", "copy.sqlite").stdout.contains("restored from s-1 at seq 4"))
  }

  @Test func aBadImportLineKeepsNothing() throws {
    let lines = [
      #"{"session":"x","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","screen":"a"}]}}}"#,
      #"{"session":"x","at":"2026-11-21T10:00:01.000Z","op":{"op":"pop"}}"#,
    ].joined(separator: "\n")
    let result = try navstore("import", "-", stdin: lines)
    #expect(result.status != 0)
    #expect(result.stderrLines.count == 1)
    #expect(
      result.stderrLines.first?.hasPrefix("navstore: line 2: session 'x', seq 2: pop at the top coordinator rejected")
        == true)
    // The import created the store and kept nothing of it: no empty store is left behind.
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("navstore.sqlite").path))
  }

  @Test func batchesKeepWhatWasCommitted() throws {
    let lines = [
      #"{"session":"x","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","screen":"a"}]}}}"#,
      #"{"session":"x","at":"2026-11-21T10:00:01.000Z","op":{"op":"presentSheet","screen":"b"}}"#,
      #"{"session":"x","at":"2026-11-21T10:00:02.000Z","op":{"op":"dismiss","count":2}}"#,
    ].joined(separator: "\n")
    let result = try navstore("import", "-", "--batch", "2", stdin: lines)
    #expect(result.status != 0)
    #expect(result.stderrLines.first?.hasPrefix("navstore: line 3:") == true)
    #expect(try navstore("sessions", "--json").stdout.contains(#""events":2"#))
  }

  @Test(arguments: [
    (
      ["show", "s-1", "--db", "absent.sqlite"],
      "navstore: no store at 'absent.sqlite' (create one with 'navstore init', or point --db or NAVSTORE_DB at an existing one)"
    ),
    (["show", "nobody"], "navstore: no session 'nobody' in the store (list them with 'navstore sessions')"),
    (["show", "s-1", "--at", "9"], "navstore: session 's-1' has events up to seq 4; there is no seq 9"),
    (
      ["append", "s-1", "--op", #"{"op":"pop"}"#],
      "navstore: session 's-1', seq 5: pop at the top coordinator rejected: route 1 is a sheet, not a push; pop only removes pushed screens (use dismiss or goBack)"
    ),
    (
      ["append", "s-1", "--op", #"{"op":"goBack"}"#, "--expect-seq", "3"],
      "navstore: session 's-1': the event was to be seq 3, but the next seq is 5 (seq 3 is already stored with other content: another writer appended first, or this is another history; re-read the session and retry)"
    ),
    (
      ["append", "s-1", "--op", #"{"op":"goBack""#],
      "navstore: --op: invalid JSON at line 1, column 15: expected ',' or '}' after an object member"
    ),
    (
      ["append", "s-1", "--op", #"{"op":"goBack"}"#, "--at", "yesterday"],
      #"navstore: The value 'yesterday' is invalid for '--at <at>': "yesterday" is not a date or a time (expected a digit at position 1); write a date like 2026-11-21, or a time like 2026-11-21T10:15:30Z or 2026-11-21T11:15:30+01:00"#
    ),
    (
      ["append", "s-1", "--op", #"{"op":"pop"}"#, "--origin", "robot"],
      "navstore: The value 'robot' is invalid for '--origin <origin>'. Please provide one of 'app' and 'user'."
    ),
    (
      ["import", "no-such-file.jsonl"], "navstore: cannot read 'no-such-file.jsonl' (does it exist and is it readable?)"
    ),
    (["import", "/"], "navstore: '/' is a folder; import reads a JSON Lines file, or - for standard input"),
    (["init", "--db", ""], "navstore: --db: the store path is empty"),
    (["sessions", "--db", "/"], "navstore: '/' is a folder; give --db the path of a store file inside it"),
    (["history", "s-1", "--from", "7"], "navstore: session 's-1' has events up to seq 4; there is no seq 7"),
    (
      ["history", String(repeating: "x", count: 129)],
      "navstore: The value '\(String(repeating: "x", count: 129))' is invalid for '<session>': invalid session id \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\": it has 129 characters, the limit is 128 (1 to 128 characters, no control characters)"
    ),
  ])
  func badInputIsOneLineOnStderr(_ arguments: [String], _ message: String) throws {
    try seedSession()
    let result = try NavStoreProcess.run(arguments, in: folder)
    #expect(result.status != 0)
    #expect(result.stderrLines == [message])
  }

  @Test func aFailedWriteToStandardOutputIsAnError() throws {
    try seedSession()
    let process = Process()
    process.executableURL = NavStoreProcess.binary
    process.arguments = ["history", "s-1", "--json"]
    process.currentDirectoryURL = folder
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus != 0)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(stderr == "navstore: cannot write to standard output (No space left on device)\n")
  }

  @Test func aFailedExportLeavesTheOldFileAsItWas() throws {
    try seedSession()
    let file = folder.appendingPathComponent("views.csv")
    try Data("previous export\n".utf8).write(to: file)
    let failed = try navstore(
      "export", "--table", "events", "--format", "csv", "--session", "nobody", "--out", "views.csv")
    #expect(failed.status != 0)
    #expect(try String(contentsOf: file, encoding: .utf8) == "previous export\n")
    #expect(!FileManager.default.fileExists(atPath: file.path + ".partial"))
    let succeeded = try navstore("export", "--table", "sessions", "--format", "csv", "--out", "views.csv")
    #expect(succeeded.status == 0)
    #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("session,events,"))
  }

  @Test func theStoreComesFromTheEnvironmentWhenNoDbIsGiven() throws {
    let process = Process()
    process.executableURL = NavStoreProcess.binary
    process.arguments = ["init"]
    process.currentDirectoryURL = folder
    process.environment = ["NAVSTORE_DB": "from-env.sqlite"]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("from-env.sqlite").path))
  }

  @Test func verifyNamesTheFirstBadSessionAndSeq() throws {
    try seedSession()
    let sqlite = "\(folder.path)/navstore.sqlite"
    let tamper = Process()
    tamper.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    tamper.arguments = [
      "sqlite3", sqlite, "DROP TRIGGER events_are_append_only_update; UPDATE events SET origin = 'user' WHERE seq = 2;",
    ]
    try tamper.run()
    tamper.waitUntilExit()
    try #require(tamper.terminationStatus == 0, "the sqlite3 shell is needed for this test")
    let verify = try navstore("verify", "s-1")
    #expect(verify.status != 0)
    #expect(
      verify.stdoutLines == [
        "s-1: FAILED at seq 2: the hash does not match the chain: the event was changed, or events were removed or reordered",
        "verified 1 session, 1 event: 1 problem",
      ])
    #expect(
      verify.stderrLines == [
        "navstore: session 's-1' fails verification at seq 2: the hash does not match the chain: the event was changed, or events were removed or reordered"
      ])
  }
}
