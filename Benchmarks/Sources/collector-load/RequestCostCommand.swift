import ArgumentParser
import AsyncHTTPClient
import BenchmarkProcesses
import Foundation

/// `collector-load cost`: the instructions one upload of 20 lines costs the collector, counted by
/// valgrind's callgrind, in all and by stage.
struct RequestCostCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cost",
    abstract: "Instructions per 20-line upload in navstore serve, by stage, counted by callgrind.",
    discussion: """
      Runs navstore serve under callgrind twice on each store, each time into a fresh place: once \
      taking REQUESTS uploads and once three times as many, from the same number of signing \
      devices (gzip'd batches of 20 lines, as the uploader sends). The difference of the two \
      counts over the difference of their uploads is one upload's work, with the collector's \
      start and stop taken off. Each stage is the same difference, of the instructions spent \
      under the functions that do that stage's work (the table under the figures names them).

      Needs valgrind and a C compiler (for a shim: valgrind 3.19 cannot run a process whose \
      main thread waits in sigsuspend, as every Swift program with an async main does on Linux), \
      and navstore built in release mode (the one beside this executable, or --navstore).

      Examples:
        swift run -c release collector-load cost
        swift run -c release collector-load cost --stores sqlite --requests 200 --devices 16
        collector-load cost --navstore ../.build/release/navstore --json cost.json
      """)

  @Option(help: "The stores to run on: sqlite, postgres, or both, comma-separated.")
  var stores = "sqlite,postgres"

  @Option(help: "Uploads of the shorter run (the longer takes three times as many).")
  var requests = 150

  @Option(help: "Devices sending at once, each its uploads in turn.")
  var devices = 8

  @Option(help: "The navstore to measure (default: the one beside this executable).")
  var navstore: String?

  @Option(help: "Keep callgrind's files in this folder (callgrind_annotate reads them).")
  var keep: String?

  @Option(help: "Where the results go as JSON.")
  var json = "request-cost.json"

  func validate() throws {
    guard LoadCommand.kinds(stores) != nil else { throw ValidationError("--stores: give sqlite, postgres, or both") }
    guard (10...10_000).contains(requests) else { throw ValidationError("--requests: give 10 to 10,000") }
    guard (1...256).contains(devices), devices <= requests else {
      throw ValidationError("--devices: give 1 to 256, and no more than --requests")
    }
  }

  func run() async throws {
    for tool in ["valgrind", "callgrind_annotate", "cc", "strip", "swift-demangle"]
    where (try? Shell.tool("which", [tool])) == nil {
      throw LoadError(
        "collector-load cost needs \(tool) (apt-get install valgrind gcc binutils; swift-demangle is the toolchain's)")
    }
    let commands = try navstore.map { NavstoreCommands(navstore: URL(fileURLWithPath: $0)) } ?? .beside()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-request-cost")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    if let keep { try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true) }
    var counter = try CallgrindCounter(navstore: commands.navstore, folder: folder)

    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    var results: [RequestCost] = []
    do {
      for kind in LoadCommand.kinds(stores) ?? [] {
        guard var store = try LoadCommand.store(kind, folder: folder, run: "c", navstore: commands) else { continue }
        var counts: [CallgrindCounter.Count] = []
        for (index, uploads) in [requests, requests * 3].enumerated() {
          say("\(kind.rawValue): \(uploads) uploads from \(devices) devices under callgrind")
          let place = store.fresh()
          let token = try commands.token(app: place.app, role: "ingest", database: place.database)
          let fleet = try SimulatedDevices(
            devices: devices, lines: uploads * SimulatedDevices.batchLines,
            run: "c\(String(UInt32.random(in: 0...UInt32.max), radix: 36))-\(index)")
          let count = try await counter.count(database: place.database, options: LoadRunner.serveOptions) { base in
            let outcome = try await LoadDriver(client: client, base: base, ingestToken: token).run(fleet)
            guard outcome.acknowledgedLines == fleet.lineCount, outcome.rejectedLines == 0 else {
              throw LoadError(
                "\(kind.rawValue): \(outcome.acknowledgedLines) of \(fleet.lineCount) lines acknowledged, "
                  + "\(outcome.rejectedLines) rejected")
            }
            guard outcome.statuses[200] == fleet.requestCount else {
              throw LoadError("\(kind.rawValue): answers \(outcome.statuses), where every upload should be one 200")
            }
          }
          if let keep {
            try? FileManager.default.copyItem(
              at: count.file, to: URL(fileURLWithPath: keep).appendingPathComponent("\(kind.rawValue)-\(uploads).out"))
          }
          counts.append(count)
        }
        let cost = RequestCost(
          store: kind, uploads: requests * 2, devices: devices, shorter: counts[0], longer: counts[1])
        say(cost.table)
        results.append(cost)
      }
    } catch {
      try await client.shutdown()
      throw error
    }
    try await client.shutdown()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(results).write(to: URL(fileURLWithPath: json))
    say("written to \(json)")
  }
}
