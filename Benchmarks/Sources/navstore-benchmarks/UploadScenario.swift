import BenchmarkProcesses
import Foundation
import NavCore

/// 10. Upload throughput: lines a second through `navstore serve`, from 4 clients at once, each
/// sending its sessions in gzip'd batches of 1,000 lines, against `navstore import` of the same
/// lines, in interleaved rounds, each on a fresh store. Both sides are the built `navstore`
/// binary in a process of its own; the batches are compressed before the clock starts (a
/// device compresses on its own time), and the collector's start is not timed, the import's
/// process start is. Each client is one `curl` sending its batches in turn on one connection:
/// an HTTP client linked into this binary would load FoundationNetworking into every child
/// process the other scenarios measure the memory of.
enum UploadScenario {
  static let clients = 4
  static let batchLines = 1_000

  static func run(sessions: Int, eventsPerSession: Int, rounds: Int) throws -> Measurement {
    let navstore = try NavstoreCommands.beside()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-bench-upload")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    let (all, batches) = try prepare(sessions: sessions, eventsPerSession: eventsPerSession, in: folder)
    let total = sessions * eventsPerSession

    let times = try Interleaved.rounds(
      rounds,
      [
        {
          let store = folder.appendingPathComponent("collector.sqlite").path
          for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
          return try upload(batches, expecting: total, navstore: navstore, folder: folder, into: store).seconds
        },
        {
          let store = folder.appendingPathComponent("imported.sqlite").path
          for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
          return try time { try navstore.run(["import", all.path, "--db", store]) }
        },
      ])
    return Measurement(
      scenario: "10 upload through serve (4 clients)", pairs: times.map { Pair(ours: $0[0], anchor: $0[1]) },
      anchorName: "navstore import", rows: total,
      note: "gzip'd batches of \(batchLines); target >= 0.5x")
  }

  /// The lines of `sessions` sessions in one file (what an import reads), and each client's
  /// gzip'd batches of them: client c sends sessions c, c + 4, c + 8, ..., each session's events
  /// in order; the file holds the same lines, client after client.
  static func prepare(sessions: Int, eventsPerSession: Int, in folder: URL, name: String = "batch") throws
    -> (all: URL, batches: [[URL]])
  {
    var lines: [[String]] = Array(repeating: [], count: clients)
    for session in 0..<sessions {
      lines[session % clients] += try sessionLines(session, events: eventsPerSession)
    }
    let all = folder.appendingPathComponent("\(name)-all.jsonl")
    try Data(lines.joined().map { $0 + "\n" }.joined().utf8).write(to: all)
    let batches = try lines.enumerated().map { client, clientLines in
      try stride(from: 0, to: clientLines.count, by: batchLines).enumerated().map { number, start in
        let text = clientLines[start..<min(start + batchLines, clientLines.count)].map { $0 + "\n" }.joined()
        return try gzip(Data(text.utf8), folder.appendingPathComponent("\(name)-\(client)-\(number)"))
      }
    }
    return (all, batches)
  }

  /// One session's events as wire-format lines: a start, then pushes and pops in turn.
  static func sessionLines(_ session: Int, events: Int) throws -> [String] {
    let id = try SessionID("upload-\(session)")
    return try (0..<events).map { seq in
      let operation: AnyOperation =
        seq == 0
        ? .start(.stack([.root(.string("home"), withNavigation: true)]))
        : seq.isMultiple(of: 2) ? .pop(1) : .push(.string("screen-\(seq)"))
      let event = AnyEvent(
        session: id, at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(session * 60_000 + seq * 250)),
        origin: .app, operation: operation)
      return try WireFormat.canonicalString(event)
    }
  }

  /// One timed upload: a collector on the store file `store`, an ingest token, then every
  /// client's batches at once; the collector's peak memory is read after the clock, and the
  /// collector stopped.
  static func upload(
    _ batches: [[URL]], expecting total: Int, navstore: NavstoreCommands, folder: URL, into store: String
  )
    throws -> (seconds: Double, peakMiB: Double)
  {
    let token = try navstore.token(app: "default", role: "ingest", database: ["--db", store])
    let collector = try collector(navstore, on: store)
    defer { collector.stop() }
    guard let url = URL(string: "\(collector.base)/v1/events") else {
      throw BenchmarkError("navstore serve did not say where it listens")
    }
    return try sendBatches(batches, expecting: total, to: url, token: token, folder: folder, server: collector)
  }

  /// A collector on the store file `store`, started (not timed), with rates no client reaches.
  static func collector(_ navstore: NavstoreCommands, on store: String) throws -> CollectorProcess {
    try CollectorProcess(
      navstore: navstore.navstore, database: ["--db", store], options: ["--rate", "1000000", "--burst", "1000000"])
  }

  /// Every client's batches sent at once to `url`, timed; the collector's peak memory after.
  private static func sendBatches(
    _ batches: [[URL]], expecting total: Int, to url: URL, token: String, folder: URL, server: CollectorProcess
  ) throws -> (seconds: Double, peakMiB: Double) {
    let clients = batches.enumerated().map { client, files in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments =
        ["curl"]
        + files.enumerated().flatMap { number, file in
          (number == 0 ? [] : ["--next"]) + [
            "-s", "-o", folder.appendingPathComponent("answer-\(client)-\(number).json").path, "-w", "%{http_code}\\n",
            "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/x-ndjson",
            "-H", "Content-Encoding: gzip", "--data-binary", "@\(file.path)", url.absoluteString,
          ]
        }
      let statuses = Pipe()
      process.standardOutput = statuses
      return (process, statuses)
    }
    var codes: [String] = []
    let seconds = try time {
      for (process, _) in clients { try process.run() }
      for (process, statuses) in clients {
        codes += String(decoding: statuses.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
          .split(separator: "\n").map(String.init)
        process.waitUntilExit()
      }
    }
    guard codes.count == batches.joined().count, codes.allSatisfy({ $0 == "200" }) else {
      throw BenchmarkError("the uploads were answered \(Set(codes).sorted()), not all 200")
    }
    var stored = 0
    for (client, files) in batches.enumerated() {
      for number in files.indices {
        let answer = try Data(contentsOf: folder.appendingPathComponent("answer-\(client)-\(number).json"))
        stored += (try JSONSerialization.jsonObject(with: answer) as? [String: Any])?["accepted"] as? Int ?? 0
      }
    }
    guard stored == total else { throw BenchmarkError("the collector accepted \(stored) lines of \(total)") }
    return (seconds, server.peakMiB)
  }

  /// `data` compressed by the system's gzip (default level), in the file `path.gz`.
  static func gzip(_ data: Data, _ path: URL) throws -> URL {
    try data.write(to: path)
    try Shell.tool("gzip", ["-f", path.path])
    return path.appendingPathExtension("gz")
  }
}
