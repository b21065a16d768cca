/// A comparison run in turn: ours and its anchors one after the other (A B A B ...), after a
/// warm-up round whose times are dropped, so both sides see the same load on a shared machine.
/// Each round's ratio is computed from that round, and a scenario reports the median ratio with
/// its range: one round's noise moves one ratio, not the result.
enum Interleaved {
  /// Runs `sides` in order, `rounds` times after one warm-up round; returns each round's times,
  /// in the order of `sides`.
  static func rounds(_ rounds: Int, _ sides: [() throws -> Double]) throws -> [[Double]] {
    for side in sides { _ = try side() }
    var times: [[Double]] = []
    for _ in 0..<max(1, rounds) { times.append(try sides.map { try $0() }) }
    return times
  }
}

/// One round of a comparison: our time, the anchor's, and the ratio of the two.
struct Pair: Encodable {
  var ours: Double
  var anchor: Double
  /// Anchor time over ours: above 1, ours is faster.
  var ratio: Double { anchor / ours }

  enum CodingKeys: String, CodingKey { case ours, anchor, ratio }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(ours, forKey: .ours)
    try container.encode(anchor, forKey: .anchor)
    try container.encode(ratio, forKey: .ratio)
  }
}

/// The median of some values (the mean of the middle two for an even count).
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}
