import Foundation

/// One line of the results table: our time, the anchor's, and their ratio (above 1: we are
/// faster than the anchor).
struct Measurement: Encodable {
  var scenario: String
  var ours: Double
  var anchorName: String
  var anchor: Double?
  var unit: String
  var rows: Int
  var note: String

  /// Anchor time over ours: the throughput ratio the targets are written in.
  var ratio: Double? { anchor.map { $0 / ours } }

  enum CodingKeys: String, CodingKey {
    case scenario, ours, anchorName = "anchor_name", anchor, ratio, unit, rows, note
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scenario, forKey: .scenario)
    try container.encode(ours, forKey: .ours)
    try container.encode(anchorName, forKey: .anchorName)
    try container.encodeIfPresent(anchor, forKey: .anchor)
    try container.encodeIfPresent(ratio, forKey: .ratio)
    try container.encode(unit, forKey: .unit)
    try container.encode(rows, forKey: .rows)
    try container.encode(note, forKey: .note)
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
        ? String(format: "%.0f us", value * 1e6) : value < 1 ? String(format: "%.1f ms", value * 1000) : String(format: "%.2f s", value)
  case "bytes": String(format: "%.0f B", value)
  case "MiB": String(format: "%.1f MiB", value)
  default: String(format: "%.3f %@", value, unit)
  }
}

func printTable(_ results: [Measurement]) {
  let header = ["scenario", "ours", "anchor", "anchor time", "ratio", "rows", "note"]
  var lines = [header]
  for result in results {
    lines.append([
      result.scenario, format(result.ours, result.unit), result.anchorName,
      result.anchor.map { format($0, result.unit) } ?? "-", result.ratio.map { String(format: "%.2fx", $0) } ?? "-",
      String(result.rows), result.note,
    ])
  }
  let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
  for (index, line) in lines.enumerated() {
    print(line.enumerated().map { column, text in text.padding(toLength: widths[column], withPad: " ", startingAt: 0) }.joined(separator: "  "))
    if index == 0 { print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
  }
}
