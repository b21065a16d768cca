import AsyncHTTPClient
import BenchmarkProcesses
import Foundation

/// One store's runs, each into a fresh place with a collector of its own.
struct LoadRunner {
  var store: StoreUnderTest
  let navstore: NavstoreCommands
  let client: HTTPClient
  let folder: URL
  let plan: LoadPlan
  private var failures: [String] = []

  /// `serve`'s defaults but for one token's rate: every simulated device shares the ingest
  /// token, as a fleet does, and the default (2,000 requests a second) would be what saturates;
  /// loopback is a trusted proxy, so each device's `X-Forwarded-For` is its address; and the one
  /// app has the whole uploads' pool, as a collector of one app gives it.
  static let serveOptions = [
    "--token-rate", "1000000", "--trusted-proxy", "127.0.0.1", "--max-open-per-app", "1000000",
  ]

  init(store: StoreUnderTest, navstore: NavstoreCommands, client: HTTPClient, folder: URL, plan: LoadPlan) {
    self.store = store
    self.navstore = navstore
    self.client = client
    self.folder = folder
    self.plan = plan
  }

  mutating func runAll() async throws -> StoreResult {
    var result = StoreResult(store: store.kind)
    for count in plan.devices {
      result.levels.append(try await level(devices: count, label: "as fast as acknowledged"))
    }
    result.levels.append(
      try await level(devices: LoadPlan.pairedDevices, readers: LoadPlan.readers, label: "with 16 export readers"))
    let saturation = result.levels.map(\.linesPerSecond).max() ?? 0
    result.saturationLinesPerSecond = saturation
    let pace = saturation / 2 / Double(SimulatedDevices.batchLines)
    for run in 1...plan.pacedRuns {
      let label = "paced at half the highest (\(Int(saturation / 2)) lines/s)"
      result.levels.append(
        try await level(
          devices: LoadPlan.pairedDevices, pace: pace,
          label: plan.pacedRuns == 1 ? label : label + ", run \(run) of \(plan.pacedRuns)"))
    }
    result.wrk = try WrkCrossCheck.run(store: &store, navstore: navstore, folder: folder, seconds: plan.wrkSeconds)
    if let wrk = result.wrk {
      say(
        String(
          format: "  wrk, 64 connections: %.0f lines/s, p50 %.1f ms, p99 %.1f ms", wrk.linesPerSecond, wrk.p50, wrk.p99)
      )
    }
    result.anchor = try await anchorPairs()
    if plan.soakLines > 0 { result.soak = try await soak() }
    result.failures = failures
    return result
  }

  /// One run: `devices` devices send `plan.lines` lines (closed, or at `pace` requests a
  /// second), `readers` readers stream exports meanwhile; then the store is counted and verified.
  mutating func level(
    devices count: Int, readers: Int = 0, pace: Double? = nil, label: String, prepared: SimulatedDevices? = nil
  ) async throws -> LevelResult {
    let place = store.fresh()
    // A device sends at most 50 requests a second (serve's default rate): below 10 devices,
    // 20,000 lines a device (1,000 batches), so that a level takes seconds, not minutes.
    let lines = count < 10 ? min(plan.lines, count * 20_000) : plan.lines
    let devices = try prepared ?? SimulatedDevices(devices: count, lines: lines, run: place.app + "r\(count)")
    let ingest = try navstore.token(app: place.app, role: "ingest", database: place.database)
    let readTokens = try (0..<readers).map { _ in
      try navstore.token(app: place.app, role: "read", database: place.database)
    }
    let collector = try CollectorProcess(
      navstore: navstore.navstore, database: place.database, options: Self.serveOptions)
    let driver = LoadDriver(client: client, base: collector.base, ingestToken: ingest)
    let tally = ExportReaders.Tally()
    let cpuBefore = collector.cpuSeconds
    let outcome: LoadDriver.Outcome
    do {
      outcome = try await withThrowingTaskGroup(of: Void.self) { group in
        ExportReaders(client: client, base: collector.base, tokens: readTokens).start(in: &group, tally: tally)
        let outcome = try await driver.run(devices, pace: pace)
        tally.stop()
        try await group.waitForAll()
        return outcome
      }
    } catch {
      collector.stop()
      throw error
    }
    let peak = collector.peakMiB
    let cpu = collector.cpuSeconds - cpuBefore
    collector.stop()
    let result = LevelResult(
      label: label, devices: count, readers: readers, outcome: outcome, lines: devices.lineCount, peakMiB: peak,
      readerBytes: tally.bytes, exports: tally.exports, collectorCPUSeconds: cpu)
    say("  \(result.summary)")
    try check(outcome, lines: devices.lineCount, place: place, what: "\(count) devices, \(label)")
    return result
  }

  /// Nothing lost, nothing twice, every chain whole, every refusal with its `Retry-After`.
  private mutating func check(
    _ outcome: LoadDriver.Outcome, lines: Int, place: (database: [String], app: String), what: String
  ) throws {
    if outcome.acknowledgedLines != lines || outcome.rejectedLines != 0 {
      failures.append(
        "\(store.kind) \(what): \(outcome.acknowledgedLines) lines acknowledged and \(outcome.rejectedLines) rejected, of \(lines)"
      )
    }
    if outcome.refusalsWithoutRetryAfter > 0 {
      failures.append("\(store.kind) \(what): \(outcome.refusalsWithoutRetryAfter) refusals without Retry-After")
    }
    let stored = try store.storedEvents(place.database, app: place.app, navstore: navstore)
    if stored != lines { failures.append("\(store.kind) \(what): \(stored) events stored, \(lines) sent") }
    do {
      try store.verify(place.database, app: place.app, navstore: navstore)
    } catch {
      failures.append("\(store.kind) \(what): navstore verify failed: \(error)")
    }
  }

  /// 64 devices against the anchor on the same lines, in interleaved pairs (the first of each
  /// pair alternating), each into a fresh place.
  mutating func anchorPairs() async throws -> AnchorResult {
    let devices = try SimulatedDevices(devices: LoadPlan.pairedDevices, lines: plan.lines, run: "pairs")
    let file = folder.appendingPathComponent("lines.jsonl")
    try Data(devices.allLines.joined().utf8).write(to: file)
    var result = AnchorResult(
      name: store.kind == .sqlite ? "navstore import" : "psql \\copy of the rows", lines: devices.lineCount)
    var rows: [URL] = []
    for pair in 0..<plan.pairs {
      var ours = 0.0
      var anchor = 0.0
      for side in pair.isMultiple(of: 2) ? [0, 1] : [1, 0] {
        if side == 0 {
          let level = try await level(
            devices: LoadPlan.pairedDevices, label: "pair \(pair + 1) against the anchor", prepared: devices)
          ours = level.seconds
          // The rows of the app this upload went to (`store.last`), for `\copy`.
          if rows.isEmpty, store.kind == .postgres, let last = store.last, last.database.count == 2 {
            rows = try PostgresCopyAnchor.dump(app: last.app, url: last.database[1], folder: folder)
          }
        } else if store.kind == .sqlite {
          anchor = try ImportAnchor.seconds(lines: file, into: store.fresh().database, navstore: navstore)
        } else {
          // The first pair runs ours first, so its rows are there.
          guard !rows.isEmpty else { throw LoadError("no rows were dumped for psql \\copy") }
          let fresh = store.fresh()
          anchor = try PostgresCopyAnchor.seconds(
            rows: rows, into: fresh.app, url: fresh.database[1], events: devices.lineCount, folder: folder)
        }
      }
      result.pairs.append(.init(ours: ours, anchor: anchor))
      say(
        "  pair \(pair + 1): ours \(String(format: "%.2f", ours)) s, \(result.name) \(String(format: "%.2f", anchor)) s"
      )
    }
    return result
  }

  /// One collector taking `plan.soakLines` lines from 64 devices, a million at a time (each a
  /// fresh fleet of devices and sessions), its resident memory read after each part.
  mutating func soak() async throws -> SoakResult {
    let place = store.fresh()
    let ingest = try navstore.token(app: place.app, role: "ingest", database: place.database)
    let collector = try CollectorProcess(
      navstore: navstore.navstore, database: place.database, options: Self.serveOptions)
    defer { collector.stop() }
    let driver = LoadDriver(client: client, base: collector.base, ingestToken: ingest)
    var result = SoakResult(lines: 0)
    let part = min(1_000_000, max(plan.soakLines / 10, 1))
    var partNumber = 0
    while result.lines < plan.soakLines {
      let lines = min(part, plan.soakLines - result.lines)
      let devices = try SimulatedDevices(
        devices: LoadPlan.pairedDevices, lines: lines, run: "\(place.app)soak\(partNumber)")
      let outcome = try await driver.run(devices)
      if outcome.acknowledgedLines != lines {
        failures.append("\(store.kind) memory run: \(outcome.acknowledgedLines) lines acknowledged of \(lines)")
      }
      if outcome.refusalsWithoutRetryAfter > 0 {
        failures.append("\(store.kind) memory run: \(outcome.refusalsWithoutRetryAfter) refusals without Retry-After")
      }
      result.lines += lines
      result.seconds += outcome.seconds
      result.residentMiB.append(.init(lines: result.lines, residentMiB: collector.residentMiB))
      partNumber += 1
      say(
        "  memory run: \(result.lines) lines, \(Int(Double(lines) / outcome.seconds)) lines/s, resident \(String(format: "%.0f", collector.residentMiB)) MiB"
      )
    }
    result.peakMiB = collector.peakMiB
    let stored = try store.storedEvents(place.database, app: place.app, navstore: navstore)
    if stored != result.lines {
      failures.append("\(store.kind) memory run: \(stored) events stored of \(result.lines)")
    }
    return result
  }
}
