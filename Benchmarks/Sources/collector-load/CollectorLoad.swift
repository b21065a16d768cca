import ArgumentParser
import AsyncHTTPClient
import BenchmarkProcesses
import Foundation

@main
struct CollectorLoad: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "collector-load",
    abstract: "The collector measured: under load (the default), or one request's instructions (cost).",
    subcommands: [LoadCommand.self, RequestCostCommand.self],
    defaultSubcommand: LoadCommand.self)
}

/// `collector-load [run]`: the collector under load, on each store.
struct LoadCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Drives navstore serve with simulated devices over loopback, on SQLite and on PostgreSQL.",
    discussion: """
      Each device signs and gzips its uploads (batches of 20 lines, sessions of 100 events), made \
      before the clock. For each store: 1, 16, 64 and 256 devices sending as fast as they are \
      acknowledged, then 64 devices with 16 readers streaming the events export; 64 devices paced \
      at half the highest throughput seen; interleaved pairs of 64 devices against the anchor \
      (navstore import of the same lines; psql \\copy of the rows an upload stored); and the \
      collector's memory over a long run. The collector runs with serve's defaults, but for \
      --token-rate (one token's devices together), raised so that the store is what saturates.

      Build navstore beside it first: swift build -c release --product navstore.
      PostgreSQL is NAVSTORE_POSTGRES_URL (Scripts/throwaway-postgres.sh start prints one).

      Examples:
        swift run -c release collector-load                 # full run: about 30 minutes
        swift run -c release collector-load --quick         # CI's: about a minute
        swift run -c release collector-load --stores sqlite --devices 64 --lines 200000
        swift run -c release collector-load --stores postgres --paced-runs 5 --soak-lines 0
      """)

  @Flag(help: "Small sizes, for CI.")
  var quick = false

  @Option(help: "The stores to run on: sqlite, postgres, or both, comma-separated.")
  var stores = "sqlite,postgres"

  @Option(help: "The device counts, comma-separated.")
  var devices = "1,16,64,256"

  @Option(help: "Lines each device count sends (default 200,000; 4,000 with --quick).")
  var lines: Int?

  @Option(help: "Interleaved pairs of 64 devices against the anchor (default 3).")
  var pairs = 3

  @Option(help: "Runs of the paced level, each into a fresh store.")
  var pacedRuns = 1

  @Option(help: "Lines of the memory run at 64 devices (default 10,000,000; 20,000 with --quick; 0 skips it).")
  var soakLines: Int?

  @Option(help: "Where the results go as JSON.")
  var json = "collector-load.json"

  func validate() throws {
    guard parsedStores != nil else { throw ValidationError("--stores: give sqlite, postgres, or both") }
    guard let counts = parsedDevices, !counts.isEmpty, counts.allSatisfy({ (1...4_096).contains($0) }) else {
      throw ValidationError("--devices: give device counts from 1 to 4,096, like 1,16,64,256")
    }
    if let lines, lines < 1 { throw ValidationError("--lines: give a positive number") }
    if let soakLines, soakLines < 0 { throw ValidationError("--soak-lines: give a number, 0 to skip") }
    guard (1...50).contains(pairs) else { throw ValidationError("--pairs: give 1 to 50") }
    guard (1...20).contains(pacedRuns) else { throw ValidationError("--paced-runs: give 1 to 20") }
  }

  var parsedStores: [StoreUnderTest.Kind]? { Self.kinds(stores) }

  /// The stores a comma-separated `--stores` names; nil when it names something else.
  static func kinds(_ stores: String) -> [StoreUnderTest.Kind]? {
    let kinds = stores.split(separator: ",").map { StoreUnderTest.Kind(rawValue: String($0)) }
    return kinds.isEmpty || kinds.contains(nil) ? nil : kinds.compactMap { $0 }
  }

  var parsedDevices: [Int]? {
    let counts = devices.split(separator: ",").map { Int($0) }
    return counts.contains(nil) ? nil : counts.compactMap { $0 }
  }

  func run() async throws {
    if let notice = BuildConfiguration.debugNotice { say(notice) }
    let navstore = try NavstoreCommands.beside()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-collector-load")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plan = LoadPlan(
      devices: parsedDevices ?? [], lines: lines ?? (quick ? 4_000 : 200_000), pairs: pairs, pacedRuns: pacedRuns,
      soakLines: soakLines ?? (quick ? 20_000 : 10_000_000), wrkSeconds: quick ? 3 : 15)

    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 4_096)
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    var report = LoadReport()
    do {
      for kind in parsedStores ?? [] {
        guard let store = try Self.store(kind, folder: folder, run: "l", navstore: navstore) else { continue }
        say("\(kind.rawValue):")
        var runner = LoadRunner(store: store, navstore: navstore, client: client, folder: folder, plan: plan)
        report.stores.append(try await runner.runAll())
      }
    } catch {
      try await client.shutdown()
      throw error
    }
    try await client.shutdown()
    say("")
    say(report.markdown)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(report).write(to: URL(fileURLWithPath: json))
    say("\nwritten to \(json)")
    if !report.failures.isEmpty {
      throw LoadError("the run found \(report.failures.count) problem(s):\n" + report.failures.joined(separator: "\n"))
    }
  }

  /// The store of `kind` a run writes into, its places named from `prefix` and a random word;
  /// `nil` for PostgreSQL without a database (a skip, see `postgresURL`).
  static func store(_ kind: StoreUnderTest.Kind, folder: URL, run prefix: String, navstore: NavstoreCommands) throws
    -> StoreUnderTest?
  {
    let run = prefix + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    switch kind {
    case .sqlite: return .sqlite(folder: folder, run: run)
    case .postgres: return try postgresURL(navstore: navstore).map { .postgres(url: $0, folder: folder, run: run) }
    }
  }

  /// `NAVSTORE_POSTGRES_URL`, with the schema made; nil (a skip) without it, unless
  /// `NAVSTORE_REQUIRE_POSTGRES=1` makes that a failure.
  static func postgresURL(navstore: NavstoreCommands) throws -> String? {
    let environment = ProcessInfo.processInfo.environment
    guard let url = environment["NAVSTORE_POSTGRES_URL"], !url.isEmpty else {
      if environment["NAVSTORE_REQUIRE_POSTGRES"] == "1" {
        throw LoadError("NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no database")
      }
      say(
        "postgres: skipped, NAVSTORE_POSTGRES_URL names no database (Scripts/throwaway-postgres.sh start prints one)")
      return nil
    }
    try navstore.run(["init", "--db", url])
    return url
  }
}

/// Writes `text` and a newline to standard output at once (not buffered), so that a long run's
/// progress shows in a log as it goes.
func say(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// The sizes of a run.
struct LoadPlan {
  let devices: [Int]
  let lines: Int
  let pairs: Int
  /// How many times the paced level runs (its p99 target holds in every run, or it is not met).
  let pacedRuns: Int
  let soakLines: Int
  let wrkSeconds: Int
  static let readers = 16
  static let pairedDevices = 64
}
