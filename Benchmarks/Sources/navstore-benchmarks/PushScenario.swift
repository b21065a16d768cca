import BenchmarkProcesses
import Foundation

/// 12. A backfill: `navstore push` of a store's sessions (demo-shaped: 1 to 100 events each) to
/// a `navstore serve` on loopback, against `navstore import` of the same sessions' lines, in
/// interleaved rounds, each into a fresh store. The push asks the collector's heads a batch at a
/// time (`POST /v1/heads`), so its time is the upload's, not a request per session; the
/// collector's start and its token are not timed, the processes' starts are.
enum PushScenario {
  static func run(sessions: Int, rounds: Int) throws -> Measurement {
    let navstore = try NavstoreCommands.beside()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-bench-push")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    // Session n has 1 + (n * 37) % 100 events: every length from 1 to 100, evenly.
    var lines: [String] = []
    for session in 0..<sessions {
      lines += try UploadScenario.sessionLines(session, events: 1 + (session * 37) % 100)
    }
    let all = folder.appendingPathComponent("sessions.jsonl")
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: all)
    let source = folder.appendingPathComponent("device.sqlite").path
    try navstore.run(["import", all.path, "--db", source])

    func fresh(_ name: String) -> String {
      let path = folder.appendingPathComponent(name).path
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      return path
    }
    let times = try Interleaved.rounds(
      rounds,
      [
        {
          try push(
            from: source, sessions: sessions, events: lines.count, navstore: navstore, into: fresh("collector.sqlite"))
        },
        {
          let store = fresh("imported.sqlite")
          return try time { try navstore.run(["import", all.path, "--db", store]) }
        },
      ])
    return Measurement(
      scenario: "12 push a backfill (\(sessions) sessions)", pairs: times.map { Pair(ours: $0[0], anchor: $0[1]) },
      anchorName: "navstore import", rows: lines.count,
      note: "1 to 100 events a session, heads asked in batches; target >= 0.5x")
  }

  /// One timed push of `source` to a collector on `store`; checks that every event was taken.
  static func push(from source: String, sessions: Int, events: Int, navstore: NavstoreCommands, into store: String)
    throws -> Double
  {
    let token = try navstore.token(app: "default", role: "ingest", database: ["--db", store])
    let collector = try UploadScenario.collector(navstore, on: store)
    defer { collector.stop() }
    var said = ""
    let seconds = try time {
      said = try navstore.run(["push", "--to", collector.base, "--token", token, "--db", source], output: true)
    }
    guard said.hasPrefix("pushed \(events) events of \(sessions) sessions"), said.contains("\(events) accepted") else {
      throw BenchmarkError("the push said '\(said)', not all \(events) events of \(sessions) sessions accepted")
    }
    return seconds
  }
}
