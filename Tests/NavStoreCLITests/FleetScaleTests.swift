import Foundation
import NavTestSupport
import Testing

/// A store of many sessions: memory stays flat (the process's own peak, read by `wait4`), and
/// every command that writes to standard output fails with one clear line when it cannot.
@Suite(.waitsOnProcesses) struct FleetScaleTests {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Before the head cache was bounded, importing 120,000 one-event sessions peaked near
  /// 100 MB (a state and a row kept per session); it now stays where one session's import does.
  /// Checkpoints, audits and proofs stream the sessions too (before they did, a checkpoint of
  /// 500,000 sessions peaked at 132 MB).
  @Test func manySessionsImportVerifyExportAndListInFlatMemory() throws {
    let sessions = 120_000
    try writeOneEventSessions(sessions, to: path("in.jsonl"))
    let bound = 64 * 1024  // KiB
    let db = ["--db", path("fleet.sqlite")]
    let key = try NavStoreProcess.run(["keygen", "--out", path("k.key")])
    try key.stdout.write(toFile: path("k.pub"), atomically: true, encoding: .utf8)
    let runs: [(String, [String])] = [
      ("import", ["import", path("in.jsonl")] + db),
      ("verify", ["verify"] + db),
      ("checkpoint", ["checkpoint", "--key", path("k.key"), "--out", path("c.note")] + db),
      ("verify against the checkpoint", ["verify", "--checkpoint", path("c.note"), "--key", path("k.pub")] + db),
      ("prove", ["prove", "device-60000", "--checkpoint", path("c.note")] + db),
      ("export events", ["export", "--table", "events", "--format", "csv"] + db),
      ("export sessions", ["export", "--table", "sessions", "--format", "jsonl"] + db),
      ("sessions", ["sessions"] + db),
    ]
    for (name, arguments) in runs {
      let measured = try NavStoreProcess.measure(arguments, stdoutPath: path("out.txt"), stderrPath: path("err.txt"))
      #expect(measured.status == 0, "\(name): \((try? String(contentsOfFile: path("err.txt"), encoding: .utf8)) ?? "")")
      #expect(measured.peakKiB > 0, "\(name): GNU time (apt package 'time') reported no peak")
      #expect(measured.peakKiB < bound, "\(name) peaked at \(measured.peakKiB) KiB")
    }
    let listing = try String(contentsOfFile: path("out.txt"), encoding: .utf8)
    #expect(listing.split(separator: "\n").count == sessions + 1, "the sessions listing has every session")
  }

  /// Output that cannot be written (a full disk) is an error, with the system's words.
  @Test(arguments: [
    ["export", "--table", "events", "--format", "csv"], ["export", "--table", "events", "--format", "jsonl"],
    ["export", "--table", "sessions", "--format", "csv"], ["export", "--table", "sessions", "--format", "jsonl"],
    ["export", "--table", "screen-views", "--format", "csv"],
    ["export", "--table", "screen-views", "--format", "jsonl"],
    ["export", "--table", "transitions", "--format", "csv"], ["export", "--table", "transitions", "--format", "jsonl"],
    ["sessions"], ["sessions", "--json"], ["history", "demo-tabs", "--json"], ["history", "demo-tabs"],
    ["show", "demo-tabs"], ["verify", "--verbose"],
  ])
  func aFullDiskOnStandardOutputIsOneClearError(arguments: [String]) throws {
    let db = ["--db", path("demo.sqlite")]
    #expect(try NavStoreProcess.measure(["demo", "--no-wait"] + db).status == 0)
    let measured = try NavStoreProcess.measure(arguments + db, stdoutPath: "/dev/full", stderrPath: path("err.txt"))
    let stderr = try String(contentsOfFile: path("err.txt"), encoding: .utf8)
    #expect(measured.status != 0, "\(arguments)")
    #expect(stderr.split(separator: "\n").count == 1, "\(arguments): \(stderr)")
    #expect(stderr.hasPrefix("navstore: cannot write to standard output"), "\(arguments): \(stderr)")
    #expect(stderr.contains("No space left on device"), "\(arguments): \(stderr)")
    #expect(!stderr.contains("SQLite"), "\(arguments): \(stderr)")
  }
}

/// `count` sessions of one event each, as devices upload them, written as JSON Lines to `path`.
func writeOneEventSessions(_ count: Int, to path: String) throws {
  var text = ""
  text.reserveCapacity(count * 160)
  for index in 0..<count {
    text +=
      #"{"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":{"home":{}},"style":"root","withNavigation":true}]}},"origin":"app","session":"device-\#(index)"}"#
    text += "\n"
  }
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}
