import Foundation
import GRDBAnchor
import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools
import RawSQLiteAnchor

/// The sizes of one run.
struct Sizes {
  var append: Int
  var importCount: Int
  var rehydrateAt: [Int]
  var planRoutes: [Int]
  var record: Int
  /// Sessions of two events each, scenario 8.
  var fleetSessions: [Int]
  /// Sessions, and events in each, uploaded in scenario 10.
  var uploadSessions: Int
  var uploadEventsPerSession: Int
  /// Sessions in the store pushed in scenario 12.
  var pushSessions: Int
  /// Events of scenario 13's deep and shallow sessions.
  var deepEvents = 20_000

  static let full = Sizes(
    append: 100_000, importCount: 1_000_000, rehydrateAt: [1_000, 100_000, 1_000_000], planRoutes: [10, 1_000, 10_000],
    record: 20_000,
    fleetSessions: [10_000, 100_000, 500_000], uploadSessions: 200, uploadEventsPerSession: 1_000,
    pushSessions: 10_000)
  /// CI's: each scenario runs and its checks hold, in a debug build, in about two minutes.
  static let quick = Sizes(
    append: 1_000, importCount: 10_000, rehydrateAt: [1_000, 5_000, 10_000], planRoutes: [10, 1_000], record: 500,
    fleetSessions: [1_000, 5_000], uploadSessions: 20, uploadEventsPerSession: 250,
    pushSessions: 200, deepEvents: 1_500)
}

enum Scenarios {
  /// 1. Durable append, one transaction per event: ours against a raw C loop of the same work,
  /// in interleaved rounds.
  static func append(_ workload: Workload, rounds: Int) throws -> Measurement {
    let times = try Interleaved.rounds(
      rounds,
      [
        {
          let store = try SessionStore(path: freshStorePath("append-ours"))
          return try time { for event in workload.events { try store.append(event) } }
        },
        {
          let rawPath = freshStorePath("append-raw")
          _ = try SessionStore(path: rawPath)
          return try time { try rawAppend(rawPath, workload, perEventTransactions: true) }
        },
      ])
    return Measurement(
      scenario: "1 append, 1 tx/event", pairs: times.map { Pair(ours: $0[0], anchor: $0[1]) }, anchorName: "raw C",
      rows: workload.events.count, note: "target >= 0.9x")
  }

  /// 2. Bulk import in batches: ours against raw C in one transaction, and GRDB with cached
  /// statements in the same batches, the three in turn each round. Returns our last store.
  static func bulkImport(_ workload: Workload, batch: Int, rounds: Int) throws -> (Measurement, Measurement, String) {
    var ourPath = ""
    let times = try Interleaved.rounds(
      rounds,
      [
        {
          var seconds = 0.0
          ourPath = try importOurs(workload, batch: batch, seconds: &seconds)
          return seconds
        },
        {
          let rawPath = freshStorePath("import-raw")
          _ = try SessionStore(path: rawPath)
          return try time { try rawAppend(rawPath, workload, perEventTransactions: false) }
        },
        {
          let grdbPath = freshStorePath("import-grdb")
          _ = try SessionStore(path: grdbPath)
          return try time {
            try GRDBAnchor.append(
              path: grdbPath, session: workload.session.rawValue, rows: workload.rows, batchSize: batch)
          }
        },
      ])
    let count = workload.events.count
    return (
      Measurement(
        scenario: "2 import, batches of \(batch)", pairs: times.map { Pair(ours: $0[0], anchor: $0[1]) },
        anchorName: "raw C, 1 tx",
        rows: count, note: "target >= 0.9x"),
      Measurement(
        scenario: "2 import, batches of \(batch)", pairs: times.map { Pair(ours: $0[0], anchor: $0[2]) },
        anchorName: "GRDB, cached",
        rows: count, note: "target >= 1.2x"),
      ourPath
    )
  }

  /// Imports the workload into a fresh store of ours, in batches; returns the store's path and
  /// sets `seconds` to the import's time.
  static func importOurs(_ workload: Workload, batch: Int, seconds: inout Double) throws -> String {
    let path = freshStorePath("import-ours")
    let store = try SessionStore(path: path)
    seconds = try time {
      var start = 0
      while start < workload.events.count {
        try BenchmarkAccess.appendBatch(
          Array(workload.events[start..<min(start + batch, workload.events.count)]), to: store)
        start += batch
      }
    }
    return path
  }

  /// 3. Rehydrating one long session at several seqs: ours (nearest snapshot + tail) against
  /// replaying from the first event.
  static func rehydrate(storePath: String, session: SessionID, at seqs: [Int]) throws -> [Measurement] {
    let store = try SessionStore(path: storePath, options: StoreOptions(access: .readOnly))
    var results: [Measurement] = []
    for seq in seqs {
      var ours = Double.infinity
      for _ in 0..<5 { ours = min(ours, try time { _ = try store.state(of: session, at: seq) }) }
      let replay = try time { try BenchmarkAccess.replay(session, in: store, from: 1, to: seq) }
      results.append(
        Measurement(
          scenario: "3 rehydrate at seq \(seq)", ours: ours, anchorName: "replay from seq 1", anchor: replay, unit: "s",
          rows: seq,
          note: seq == seqs.last ? "flat: ours at \(seqs.last ?? 0) within 2x of at \(seqs.first ?? 0)" : ""))
    }
    return results
  }

  /// 4. Export every event to CSV: ours against the sqlite3 shell's `-csv` on the same rows, in
  /// interleaved rounds.
  static func export(storePath: String, rows: Int, rounds: Int) throws -> Measurement {
    let store = try SessionStore(path: storePath, options: StoreOptions(access: .readOnly))
    let times = try Interleaved.rounds(
      rounds,
      [
        { try time { try exportEventsCSV(store, to: "/dev/null") } },
        {
          try time {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [
              "sqlite3", "-csv", "-header", storePath,
              "SELECT session_id, seq, at, origin, op, cause, lower(hex(hash)) FROM events ORDER BY session_id, seq",
            ]
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            process.waitUntilExit()
          }
        },
      ])
    return Measurement(
      scenario: "4 export events to CSV", pairs: times.map { Pair(ours: $0[0], anchor: $0[1]) },
      anchorName: "sqlite3 -csv", rows: rows,
      note: "target >= 1.0x")
  }

  /// Our export path, as `navstore export --table events --format csv` runs it.
  static func exportEventsCSV(_ store: SessionStore, to path: String) throws {
    guard let handle = FileHandle(forWritingAtPath: path) else { return }
    try store.exportEncoded(.events, format: .csv) { chunk in try handle.write(contentsOf: chunk) }
  }

  /// 5. Planning a restore from the launch state, for stacks of several sizes and a nested tree.
  static func plan(routes sizes: [Int]) throws -> [Measurement] {
    var results: [Measurement] = []
    for count in sizes {
      let target: AnyCoordinator = .stack(
        [.root("home", withNavigation: true)] + (1..<count).map { AnyRoute.push(.number(Double($0))) })
      for host in [HostProfile.navigationStack, .navigationView] {
        var best = Double.infinity
        for _ in 0..<3 {
          best = min(best, try time { _ = try AnyCoordinator.plan(from: target.launchState, to: target, host: host) })
        }
        results.append(
          Measurement(
            scenario: "5 plan restore, \(count) routes", ours: best, anchorName: host.rawValue, anchor: nil, unit: "s",
            rows: count,
            note: count >= 10_000 && host == .navigationStack ? "target < 10 ms" : ""))
      }
    }
    let tree = nestedTree(depth: 4)
    var best = Double.infinity
    for _ in 0..<3 {
      best = min(
        best, try time { _ = try AnyCoordinator.plan(from: tree.launchState, to: tree, host: .navigationView) })
    }
    results.append(
      Measurement(
        scenario: "5 plan restore, nested tree", ours: best, anchorName: "navigation-view", anchor: nil, unit: "s",
        rows: routeCount(tree), note: "tabs and children, 4 deep"))
    return results
  }

  static func nestedTree(depth: Int) -> AnyCoordinator {
    let routes: [AnyRoute] =
      [.root("root", withNavigation: true)]
      + (0..<8).map { index in
        index == 7 && depth > 0
          ? AnyRoute.sheet(
            .number(Double(index)), withNavigation: true,
            child: .tabs([nestedTree(depth: depth - 1), nestedTree(depth: depth - 1)], selected: 1))
          : AnyRoute.push(.number(Double(index)))
      }
    return .stack(routes)
  }

  static func routeCount(_ coordinator: AnyCoordinator) -> Int {
    switch coordinator {
    case .stack(let routes): routes.count + routes.compactMap(\.child).map(routeCount).reduce(0, +)
    case .tabs(let tabs, _): tabs.map(routeCount).reduce(0, +)
    }
  }

  static func rawAppend(_ path: String, _ workload: Workload, perEventTransactions: Bool) throws {
    // Keep every C string alive for the call.
    let cStrings = workload.rows.map { (strdup($0.origin), strdup($0.op), $0.snapshot.map { strdup($0) } ?? nil) }
    defer {
      for (origin, op, snapshot) in cStrings {
        free(origin)
        free(op)
        free(snapshot)
      }
    }
    let hashes = workload.rows.flatMap { Array($0.hash) }
    let code = hashes.withUnsafeBufferPointer { hashBuffer -> Int32 in
      var events = workload.rows.enumerated().map { index, row in
        raw_event(
          seq: row.seq, at: row.at, origin: cStrings[index].0, op: cStrings[index].1,
          hash: hashBuffer.baseAddress.map { $0 + index * 32 }, snapshot: cStrings[index].2, depth: row.depth)
      }
      return raw_append(path, workload.session.rawValue, &events, Int64(events.count), perEventTransactions ? 1 : 0)
    }
    guard code == 0 else { throw BenchmarkError("raw C append failed with \(code)") }
  }
}

struct BenchmarkError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
