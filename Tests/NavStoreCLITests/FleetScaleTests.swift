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

  /// Memory is flat in the number of sessions: each command's peak over 60,000 one-event
  /// sessions is within 8 MiB of its peak over 7,500, and under 64 MiB. Before the head cache was
  /// bounded, an import kept a state and a row per session (near 100 MB for 120,000 sessions,
  /// about 40 MB more over the larger store here than over the smaller); a checkpoint of 500,000
  /// sessions peaked at 132 MB before checkpoints, audits and proofs streamed the sessions
  /// (about 13 MB more here). The listing holds one row at a time too.
  @Test func manySessionsImportVerifyExportAndListInFlatMemory() throws {
    let key = try NavStoreProcess.run(["keygen", "--out", path("k.key")])
    try key.stdout.write(toFile: path("k.pub"), atomically: true, encoding: .utf8)
    let small = try peaks(sessions: 7_500, name: "small")
    let large = try peaks(sessions: 60_000, name: "large")
    for (command, peak) in large {
      let smaller = try #require(small[command])
      #expect(peak - smaller < 8 * 1024, "\(command): \(smaller) KiB over 7,500 sessions, \(peak) KiB over 60,000")
      #expect(peak < 64 * 1024, "\(command) peaked at \(peak) KiB")
    }
  }

  /// Each command's peak (KiB) over a store of `sessions` one-event sessions, imported first.
  private func peaks(sessions: Int, name: String) throws -> [String: Int] {
    try writeOneEventSessions(sessions, to: path("\(name).jsonl"))
    let db = ["--db", path("\(name).sqlite")]
    let note = path("\(name).note")
    let runs: [(String, [String])] = [
      ("import", ["import", path("\(name).jsonl")] + db),
      ("verify", ["verify"] + db),
      ("checkpoint", ["checkpoint", "--key", path("k.key"), "--out", note] + db),
      ("verify against the checkpoint", ["verify", "--checkpoint", note, "--key", path("k.pub")] + db),
      ("prove", ["prove", "device-\(sessions / 2)", "--checkpoint", note] + db),
      ("export events", ["export", "--table", "events", "--format", "csv"] + db),
      ("export sessions", ["export", "--table", "sessions", "--format", "jsonl"] + db),
      ("sessions", ["sessions"] + db),
    ]
    var peaks: [String: Int] = [:]
    for (command, arguments) in runs {
      let measured = try NavStoreProcess.measure(arguments, stdoutPath: path("out.txt"), stderrPath: path("err.txt"))
      #expect(
        measured.status == 0, "\(command): \((try? String(contentsOfFile: path("err.txt"), encoding: .utf8)) ?? "")")
      #expect(measured.peakKiB > 0, "\(command): GNU time (apt package 'time') reported no peak")
      peaks[command] = measured.peakKiB
    }
    let listing = try String(contentsOfFile: path("out.txt"), encoding: .utf8)
    #expect(listing.split(separator: "\n").count == sessions + 1, "the sessions listing has every session")
    return peaks
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
