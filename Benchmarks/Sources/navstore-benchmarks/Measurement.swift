import Foundation

/// One line of the results table: our time, the anchor's, and their ratio (above 1: we are
/// faster than the anchor).
struct Measurement: Encodable {
  var scenario: String
  /// Our time: the median of the pairs' when the scenario ran in pairs.
  var ours: Double
  var anchorName: String
  /// The anchor's time, likewise.
  var anchor: Double?
  var unit: String
  var rows: Int
  var note: String
  /// Each round of an interleaved comparison (empty for a scenario measured once).
  var pairs: [Pair] = []

  /// A scenario compared in interleaved rounds: times and ratio are the pairs' medians.
  init(scenario: String, pairs: [Pair], anchorName: String, unit: String = "s", rows: Int, note: String) {
    self.init(
      scenario: scenario, ours: median(pairs.map(\.ours)), anchorName: anchorName, anchor: median(pairs.map(\.anchor)),
      unit: unit,
      rows: rows, note: note)
    self.pairs = pairs
  }

  /// A scenario measured once, or a figure without an anchor.
  init(scenario: String, ours: Double, anchorName: String, anchor: Double?, unit: String, rows: Int, note: String) {
    self.scenario = scenario
    self.ours = ours
    self.anchorName = anchorName
    self.anchor = anchor
    self.unit = unit
    self.rows = rows
    self.note = note
  }

  /// Anchor time over ours, the throughput ratio the targets are written in: the median of the
  /// pairs' ratios when there are pairs (not the ratio of the median times).
  var ratio: Double? {
    if !pairs.isEmpty { return median(pairs.map(\.ratio)) }
    return anchor.map { $0 / ours }
  }

  /// The lowest and highest of the pairs' ratios.
  var ratioRange: ClosedRange<Double>? {
    let ratios = pairs.map(\.ratio)
    guard let low = ratios.min(), let high = ratios.max() else { return nil }
    return low...high
  }

  enum CodingKeys: String, CodingKey {
    case scenario, ours
    case anchorName = "anchor_name"
    case anchor, ratio
    case ratioMin = "ratio_min"
    case ratioMax = "ratio_max"
    case unit, rows, note, pairs
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scenario, forKey: .scenario)
    try container.encode(ours, forKey: .ours)
    try container.encode(anchorName, forKey: .anchorName)
    try container.encodeIfPresent(anchor, forKey: .anchor)
    try container.encodeIfPresent(ratio, forKey: .ratio)
    try container.encodeIfPresent(ratioRange?.lowerBound, forKey: .ratioMin)
    try container.encodeIfPresent(ratioRange?.upperBound, forKey: .ratioMax)
    try container.encode(unit, forKey: .unit)
    try container.encode(rows, forKey: .rows)
    try container.encode(note, forKey: .note)
    if !pairs.isEmpty { try container.encode(pairs, forKey: .pairs) }
  }
}

/// Wall time of `body`, in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// A fresh, empty NavStore file (schema created by NavStore itself) at a temporary path.
func freshStorePath(_ name: String) -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-bench-\(name).sqlite").path
  for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  return path
}

func format(_ value: Double, _ unit: String) -> String {
  switch unit {
  case "s":
    value < 0.00001
      ? String(format: "%.2f us", value * 1e6)
      : value < 0.001
        ? String(format: "%.0f us", value * 1e6)
        : value < 1 ? String(format: "%.1f ms", value * 1000) : String(format: "%.2f s", value)
  case "bytes": String(format: "%.0f B", value)
  case "MiB": String(format: "%.1f MiB", value)
  default: String(format: "%.3f %@", value, unit)
  }
}

/// `0.92x (0.89 to 0.94, 5 pairs)`, or `0.92x` for a scenario measured once.
func ratioText(_ result: Measurement) -> String {
  guard let ratio = result.ratio else { return "-" }
  guard let range = result.ratioRange, result.pairs.count > 1 else { return String(format: "%.2fx", ratio) }
  return String(format: "%.2fx (%.2f to %.2f, %d pairs)", ratio, range.lowerBound, range.upperBound, result.pairs.count)
}

func printTable(_ results: [Measurement]) {
  let header = ["scenario", "ours", "anchor", "anchor time", "ratio", "rows", "note"]
  var lines = [header]
  for result in results {
    lines.append([
      result.scenario, format(result.ours, result.unit), result.anchorName,
      result.anchor.map { format($0, result.unit) } ?? "-", ratioText(result),
      String(result.rows), result.note,
    ])
  }
  let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
  for (index, line) in lines.enumerated() {
    print(
      line.enumerated().map { column, text in text.padding(toLength: widths[column], withPad: " ", startingAt: 0) }
        .joined(separator: "  "))
    if index == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
  }
}
