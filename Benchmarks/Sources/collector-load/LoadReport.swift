import Foundation

/// One run's figures.
struct LevelResult: Codable {
  let label: String
  let devices: Int
  let readers: Int
  let lines: Int
  let requests: Int
  let seconds: Double
  let linesPerSecond: Double
  /// Acknowledgement latency in milliseconds (every answer, refusals included).
  let p50: Double
  let p99: Double
  let p999: Double
  let max: Double
  /// A batch's time to its 200 from its first sending, refusals' waits included (milliseconds).
  let p99UntilAcknowledged: Double
  /// Answers by status (`-1`: the connection failed).
  let statuses: [String: Int]
  let peakMiB: Double
  let readerMiBPerSecond: Double
  let exports: Int
  /// The collector's processor time over the run (user and system, both cores together).
  let collectorCPUSeconds: Double

  init(
    label: String, devices: Int, readers: Int, outcome: LoadDriver.Outcome, lines: Int, peakMiB: Double,
    readerBytes: Int, exports: Int, collectorCPUSeconds: Double
  ) {
    self.label = label
    self.devices = devices
    self.readers = readers
    self.lines = lines
    requests = outcome.statuses.values.reduce(0, +)
    seconds = outcome.seconds
    linesPerSecond = Double(lines) / Swift.max(outcome.seconds, 1e-9)
    let milliseconds = { (percentile: Double) in Double(outcome.latency.valueAtPercentile(percentile)) / 1_000 }
    p50 = milliseconds(50)
    p99 = milliseconds(99)
    p999 = milliseconds(99.9)
    max = Double(outcome.latency.max) / 1_000
    p99UntilAcknowledged = Double(outcome.untilAcknowledged.valueAtPercentile(99)) / 1_000
    statuses = Dictionary(uniqueKeysWithValues: outcome.statuses.map { (String($0.key), $0.value) })
    self.peakMiB = peakMiB
    readerMiBPerSecond = Double(readerBytes) / 1_048_576 / Swift.max(outcome.seconds, 1e-9)
    self.exports = exports
    self.collectorCPUSeconds = collectorCPUSeconds
  }

  /// Answers that were 429 or 503.
  var refusals: Int { (statuses["429"] ?? 0) + (statuses["503"] ?? 0) }

  var summary: String {
    String(
      format:
        "%4d devices%@, %@: %.0f lines/s, p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, %d refused, peak %.0f MiB, collector CPU %.0f%% of the run",
      devices, readers > 0 ? " + \(readers) readers" : "", label, linesPerSecond, p50, p99, p999, refusals, peakMiB,
      100 * collectorCPUSeconds / Swift.max(seconds, 1e-9))
  }
}

/// Interleaved pairs of 64 devices against the anchor on the same lines.
struct AnchorResult: Codable {
  struct Pair: Codable {
    let ours: Double
    let anchor: Double
  }
  let name: String
  let lines: Int
  var pairs: [Pair] = []

  /// The median of each pair's throughput ratio (anchor's time over ours: above 1, ours is faster).
  var ratio: Double { median(pairs.map { $0.anchor / $0.ours }) }
  var oursLinesPerSecond: Double { Double(lines) / median(pairs.map(\.ours)) }
  var anchorLinesPerSecond: Double { Double(lines) / median(pairs.map(\.anchor)) }
}

/// The collector's resident memory over one long run.
struct SoakResult: Codable {
  struct Reading: Codable {
    let lines: Int
    let residentMiB: Double
  }
  var lines: Int
  var seconds = 0.0
  var residentMiB: [Reading] = []
  var peakMiB = 0.0
}

struct StoreResult: Codable {
  let store: StoreUnderTest.Kind
  var levels: [LevelResult] = []
  var saturationLinesPerSecond = 0.0
  var anchor: AnchorResult?
  var wrk: WrkCrossCheck.Result?
  var soak: SoakResult?
  var failures: [String] = []
}

/// Every store's results, and the table BENCHMARKS.md shows.
struct LoadReport: Codable {
  var stores: [StoreResult] = []

  var failures: [String] { stores.flatMap(\.failures) }

  var markdown: String {
    var text =
      "| store | devices | readers | run | lines | lines/s | p50 ms | p99 ms | p99.9 ms | 429 + 503 | p99 to 200 ms | peak MiB |\n"
      + "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    for store in stores {
      for level in store.levels {
        text += String(
          format: "| %@ | %d | %d | %@ | %d | %.0f | %.1f | %.1f | %.1f | %d | %.1f | %.0f |\n", store.store.rawValue,
          level.devices, level.readers, level.label, level.lines, level.linesPerSecond, level.p50, level.p99,
          level.p999, level.refusals, level.p99UntilAcknowledged, level.peakMiB)
      }
    }
    text += "\n| store | anchor | lines | ours lines/s | anchor lines/s | ratio (median of pairs) | pairs |\n"
    text += "|---|---|---:|---:|---:|---:|---:|\n"
    for store in stores {
      guard let anchor = store.anchor else { continue }
      text += String(
        format: "| %@ | %@ | %d | %.0f | %.0f | %.2fx | %d |\n", store.store.rawValue, anchor.name, anchor.lines,
        anchor.oursLinesPerSecond, anchor.anchorLinesPerSecond, anchor.ratio, anchor.pairs.count)
    }
    let crossChecks = stores.compactMap { store in store.wrk.map { (store.store, $0) } }
    if !crossChecks.isEmpty {
      text +=
        "\n| store | wrk, 64 connections, plain bodies | lines/s | p50 ms | p99 ms | non-2xx |\n|---|---:|---:|---:|---:|---:|\n"
      for (kind, wrk) in crossChecks {
        text += String(
          format: "| %@ | %d s | %.0f | %.1f | %.1f | %d |\n", kind.rawValue, wrk.seconds, wrk.linesPerSecond, wrk.p50,
          wrk.p99, wrk.non2xx)
      }
    }
    let soaks = stores.compactMap { store in store.soak.map { (store.store, $0) } }
    if !soaks.isEmpty {
      text += "\n| store | memory run | lines/s | resident MiB as it went | peak MiB |\n|---|---:|---:|---|---:|\n"
      for (kind, soak) in soaks {
        let readings = soak.residentMiB.map { String(format: "%.0f", $0.residentMiB) }.joined(separator: ", ")
        text += String(
          format: "| %@ | %d lines | %.0f | %@ | %.0f |\n", kind.rawValue, soak.lines,
          Double(soak.lines) / max(soak.seconds, 1e-9), readings, soak.peakMiB)
      }
    }
    text += "\n" + targets
    return text
  }

  /// The targets, each said met or not, with its figure: the throughput against the store's
  /// anchor (0.6x `navstore import`, 0.3x `psql \copy`), the collector's CPU per request at 64
  /// devices (250 µs), and the paced level's p99 under 50 ms in every run of it.
  var targets: String {
    var lines: [String] = []
    for store in stores {
      let name = store.store.rawValue
      if let anchor = store.anchor {
        let target = store.store == .sqlite ? 0.6 : 0.3
        lines.append(
          String(
            format: "- %@: throughput at 64 devices %.2fx the anchor (target %.1fx): %@", name, anchor.ratio, target,
            anchor.ratio >= target ? "met" : "NOT met"))
      }
      let alone = store.levels.first { $0.devices == 64 && $0.readers == 0 && $0.label.hasPrefix("as fast") }
      if let level = alone, level.requests > 0 {
        let perRequest = level.collectorCPUSeconds / Double(level.requests) * 1e6
        lines.append(
          String(
            format: "- %@: the collector's CPU per request at 64 devices %.0f µs (target 250 µs): %@", name, perRequest,
            perRequest <= 250 ? "met" : "NOT met"))
      }
      let paced = store.levels.filter { $0.label.hasPrefix("paced") }
      if let worst = paced.map(\.p99).max() {
        let under = paced.filter { $0.p99 < 50 }.count
        lines.append(
          String(
            format:
              "- %@: p99 at half the highest throughput %.1f ms at worst, under 50 ms in %d of %d runs (target: all): %@",
            name, worst, under, paced.count, under == paced.count ? "met" : "NOT met"))
      }
      let peak = max(store.levels.map(\.peakMiB).max() ?? 0, store.soak?.peakMiB ?? 0)
      lines.append(
        String(
          format: "- %@: the collector's peak memory %.0f MiB (target under 128 MiB): %@", name, peak,
          peak < 128 ? "met" : "NOT met"))
      let refused = store.levels.reduce(0) { $0 + $1.refusals }
      lines.append(
        "- \(name): \(refused) answers of the levels were 429 or 503, every one with Retry-After unless listed below")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return 0 }
  return sorted.count.isMultiple(of: 2)
    ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2 : sorted[sorted.count / 2]
}
