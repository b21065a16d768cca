import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// 13. A session as deep as the wire format allows, read the ways a collector reads one:
/// verification, a replay (what the listing's screen filter does), the screen views' export and
/// the state at its end, against a shallow session of as many events (the anchor). The deep one is 999 pushes, then a
/// pop and a push in turn, so from its 1,000th event on each state is 1,000 routes; the shallow
/// one a push and a pop in turn, 2 routes at most. The ratio is what depth costs: near 1 when an
/// event costs what it changes, far below it when each event copies or walks its stack.
enum DeepSessionScenario {
  static func run(events: Int, rounds: Int) throws -> [Measurement] {
    let store = try SessionStore(path: freshStorePath("deep-reads"))
    let deep = try SessionID("deep")
    let shallow = try SessionID("shallow")
    // The wire format's longest stack: 1,000 routes.
    try BenchmarkAccess.appendBatch(session(deep, events: events, depth: 1_000), to: store)
    try BenchmarkAccess.appendBatch(session(shallow, events: events, depth: 2), to: store)
    let reads: [(name: String, read: (SessionID) throws -> Void)] = [
      ("verify", { id in _ = try store.verify([id]) }),
      ("replay", { id in try BenchmarkAccess.replay(id, in: store) }),
      (
        "screen views",
        { id in try store.exportEncoded(.screenViews, format: .csv, filter: ExportFilter(session: id)) { _ in } }
      ),
      ("state at the end", { id in _ = try store.state(of: id) }),
    ]
    return try reads.map { name, read in
      let times = try Interleaved.rounds(rounds, [{ try time { try read(deep) } }, { try time { try read(shallow) } }])
      return Measurement(
        scenario: "13 \(name), \(events) events 1,000 deep", pairs: times.map { Pair(ours: $0[0], anchor: $0[1]) },
        anchorName: "2 deep", rows: events, note: "depth's cost: near 1x")
    }
  }

  /// A session of `events` events whose stack grows to `depth` routes, then keeps there: a pop
  /// and a push in turn.
  static func session(_ id: SessionID, events: Int, depth: Int) -> [AnyEvent] {
    let longest = depth - 1
    var operations: [AnyOperation] = [.start(.stack([.root(.string("home"), withNavigation: true)]))]
    for index in 1..<events {
      operations.append(
        index <= longest || (index - longest).isMultiple(of: 2) ? .push(.string("screen-\(index)")) : .pop())
    }
    return operations.enumerated().map { index, operation in
      AnyEvent(
        session: id, at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(index) * 100),
        operation: operation)
    }
  }
}
