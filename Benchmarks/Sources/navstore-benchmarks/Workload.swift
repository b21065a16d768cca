import Foundation
import GRDBAnchor
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// One long session of a browsing pattern (pushes and pops on a stack up to 30 deep), and the
/// rows NavStore writes for it, precomputed so the anchors insert exactly the same data.
struct Workload {
  let session: SessionID
  let events: [AnyEvent]
  let rows: [GRDBAnchor.Row]

  static func make(count: Int, snapshotInterval: Int = StoreOptions.defaultSnapshotInterval) throws -> Workload {
    let session = try SessionID("bench")
    var events: [AnyEvent] = []
    var rows: [GRDBAnchor.Row] = []
    events.reserveCapacity(count)
    rows.reserveCapacity(count)
    var state: AnyCoordinator?
    var previous = BenchmarkAccess.genesisHash
    var depth = 1
    for index in 0..<count {
      let operation: AnyOperation
      if index == 0 {
        operation = .start(.stack([.root(["home": [:]], withNavigation: true)]))
      } else if depth > 1 && index % 3 == 0 {
        operation = .pop()
        depth -= 1
      } else if depth < 30 {
        operation = .push(["numberDetail": ["number": .number(Double(index))]])
        depth += 1
      } else {
        operation = .popToRoot()
        depth = 1
      }
      let seq = index + 1
      let event = AnyEvent(
        session: session, seq: seq, at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(index) * 1000),
        origin: index % 3 == 0 ? .user : .app, operation: operation)
      let next = try BenchmarkAccess.state(after: operation, from: state)
      state = next
      let hash = try BenchmarkAccess.chainHash(of: event, after: previous)
      previous = hash
      rows.append(
        GRDBAnchor.Row(
          seq: Int64(seq), at: event.at.millisecondsSince1970, origin: event.origin.rawValue,
          op: try WireFormat.canonicalString(operation), hash: Data(hash),
          snapshot: seq % snapshotInterval == 0 ? try WireFormat.canonicalString(next) : nil,
          depth: Int64(BenchmarkAccess.visibleDepth(of: next))))
      var unclaimed = event
      unclaimed.seq = nil
      events.append(unclaimed)
    }
    return Workload(session: session, events: events, rows: rows)
  }
}
