import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// Batches of `AppendPipeline.chunkSize` events or more, and every JSON Lines import, are
/// prepared on a second thread while the writer stores the events before them. These tests
/// hold that path to the sequential one: the same rows, the same outcomes, the same first
/// error at the same line, and exactly the committed batches kept after a failure.
@Suite struct AppendPipelineTests {
  /// Events for several sessions, interleaved at random, some sessions started before the
  /// batch (so the preparing thread reads their heads from the file), and now and then one
  /// disturbed: an operation the state refuses, a seq claimed out of turn, a wrong hash, an
  /// event sent twice.
  struct Scenario: CustomStringConvertible {
    var before: [AnyEvent]
    var batch: [AnyEvent]
    var snapshotInterval: Int
    var headCacheCapacity: Int
    var description: String {
      "\(before.count) events before, \(batch.count) in the batch, snapshots every \(snapshotInterval), \(headCacheCapacity) heads"
    }
  }

  static let scenarios = Generator<Scenario, Shrink.None<Scenario>> { rng in
    // At least 260 events: more than a chunk of the pipeline (256), so it is used.
    let sessionCount = Int.random(in: 2...6, using: &rng)
    var queues: [[AnyEvent]] = (0..<sessionCount).map { index in
      RandomSession.make(id: "s\(index)", using: &rng, length: Int.random(in: 140...220, using: &rng)).events
    }
    // Some sessions have their first events stored before the batch.
    var before: [AnyEvent] = []
    for index in queues.indices where Bool.random(using: &rng) {
      let stored = Int.random(in: 1...10, using: &rng)
      before += queues[index].prefix(stored)
      queues[index].removeFirst(stored)
    }
    var batch: [AnyEvent] = []
    while let index = queues.indices.filter({ !queues[$0].isEmpty }).randomElement(using: &rng) {
      // Runs of one session, as apps and uploads write them, of random length.
      for _ in 0..<Int.random(in: 1...12, using: &rng) where !queues[index].isEmpty {
        batch.append(queues[index].removeFirst())
      }
    }
    // Half the batches stay valid; the others get one or two disturbances anywhere.
    if Bool.random(using: &rng) {
      for _ in 0..<Int.random(in: 1...2, using: &rng) where !batch.isEmpty {
        let position = Int.random(in: 0..<batch.count, using: &rng)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: batch[position].operation = .goBack(1_000)
        case 1: batch[position].seq = Int.random(in: 1...400, using: &rng)
        case 2: batch[position].hash = String(repeating: "0", count: 64)
        default: batch.insert(batch[position], at: position + 1)
        }
      }
    }
    return Scenario(
      before: before, batch: batch, snapshotInterval: Int.random(in: 1...12, using: &rng),
      // Two heads makes the preparing thread forget sessions all the time and read them back
      // from the file, where this transaction's own writes are not yet visible.
      headCacheCapacity: Bool.random(using: &rng) ? 2 : 1_000)
  }

  /// The data tables of a store (the store's random identity left out), for comparing two.
  static func contents(_ path: String) throws -> String {
    try tableDump(path).split(separator: "\n")
      .filter { $0.hasPrefix("events: ") || $0.hasPrefix("sessions: ") || $0.hasPrefix("snapshots: ") }
      .joined(separator: "\n")
  }

  @Test(arguments: ["file", "memory"])
  func aPipelinedBatchDoesWhatAppendingOneByOneDoes(kind: String) async throws {
    await checkProperty(count: 40, input: Self.scenarios) { scenario in
      let folder = try TemporaryFolder()
      let options = StoreOptions(
        snapshotInterval: scenario.snapshotInterval, headCacheCapacity: scenario.headCacheCapacity)
      let pipelinedPath = folder.path("pipelined.sqlite")
      let sequentialPath = folder.path("sequential.sqlite")
      // The in-memory store has no readers: the writer appends what the preparer cannot.
      let pipelined = try SessionStore(path: kind == "file" ? pipelinedPath : ":memory:", options: options)
      let sequential = try SessionStore(path: sequentialPath, options: options)
      for event in scenario.before {
        try pipelined.append(event)
        try sequential.append(event)
      }

      // The sequential reference: one by one, up to the first refusal.
      var expectedEvents: [AnyEvent] = []
      var expectedDuplicates: [Int] = []
      var firstFailure: (position: Int, error: StoreError)?
      for (index, event) in scenario.batch.enumerated() {
        do throws(StoreError) {
          let outcome = try sequential.append(event)
          expectedEvents.append(outcome.event)
          if outcome.wasAlreadyStored { expectedDuplicates.append(index) }
        } catch {
          firstFailure = (index + 1, error)
          break
        }
      }

      let snapshotBefore = kind == "file" ? try Self.contents(pipelinedPath) : ""
      let result = Result { () throws(StoreError) in try pipelined.append(contentsOf: scenario.batch) }
      switch result {
      case .success(let outcome):
        #expect(
          firstFailure == nil, "the batch was accepted; one by one, line \(firstFailure?.position ?? 0) was refused")
        #expect(outcome.events == expectedEvents)
        #expect(outcome.alreadyStoredPositions == expectedDuplicates)
        if kind == "file" { #expect(try Self.contents(pipelinedPath) == Self.contents(sequentialPath)) }
      case .failure(let error):
        guard let firstFailure else {
          Issue.record("the batch was refused (\(error)); one by one, every event was accepted")
          return
        }
        #expect(error == .lineFailed(line: firstFailure.position, firstFailure.error))
        if kind == "file" {
          #expect(try Self.contents(pipelinedPath) == snapshotBefore, "a refused batch wrote something")
        }
      }
      #expect(try pipelined.verify().allSatisfy(\.isIntact))
      // A refused batch may leave a session unborn in both stores: the states are compared only
      // when everything was stored.
      for session in Set(scenario.batch.map(\.session)) where firstFailure == nil {
        #expect(try pipelined.state(of: session) == sequential.state(of: session))
      }
    }
  }

  // MARK: Imports

  /// 700 lines of four sessions, interleaved in runs.
  static func importLines() throws -> [String] {
    var rng = SeededRandom(seed: 16)
    var queues = (0..<4).map { RandomSession.make(id: "i\($0)", using: &rng, length: 175).events }
    var lines: [String] = []
    var turn = 0
    while queues.contains(where: { !$0.isEmpty }) {
      let index = turn % queues.count
      turn += 1
      for _ in 0..<7 where !queues[index].isEmpty {
        lines.append(try Self.line(queues[index].removeFirst()))
      }
    }
    return lines
  }

  static func line(_ event: AnyEvent) throws -> String {
    String(decoding: try WireFormat.canonicalBytes(event), as: UTF8.self)
  }

  /// What `body` threw, if it threw.
  static func failure(of body: () throws(StoreError) -> Void) -> StoreError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  /// A bad line anywhere (first, last, on both sides of a chunk's edge and of a batch's) stops
  /// the import naming it, with exactly the batches before its own kept.
  @Test(arguments: [1, 2, 100, 101, 255, 256, 257, 300, 512, 513, 699, 700])
  func aBadLineAnywhereKeepsExactlyTheCommittedBatches(position: Int) throws {
    let lines = try Self.importLines()
    let folder = try TemporaryFolder()
    for badness in ["not JSON", "refused", "conflict"] {
      var broken = lines
      let original = try WireFormat.decode(AnyEvent.self, from: Array(lines[position - 1].utf8))
      switch badness {
      case "not JSON": broken[position - 1] = "{\"session\": "
      case "refused":
        var refused = original
        refused.operation = .goBack(1_000)
        broken[position - 1] = try Self.line(refused)
      default:
        var conflicting = original
        conflicting.seq = 999
        broken[position - 1] = try Self.line(conflicting)
      }
      let path = folder.path("\(badness)-\(position).sqlite")
      let store = try SessionStore(path: path)
      let failure = Self.failure { () throws(StoreError) in
        _ = try store.importJSONLines(from: LinesInMemory(broken), batchSize: 100)
      }
      switch (badness, failure) {
      case ("not JSON", .invalidLine(let line, _)?), ("refused", .lineFailed(let line, .rejected)?),
        ("conflict", .lineFailed(let line, .conflict)?):
        #expect(line == position, "\(badness)")
      default:
        Issue.record("\(badness) at line \(position): \(String(describing: failure))")
      }
      // The reference: the committed batches' lines, imported alone.
      let committed = (position - 1) / 100 * 100
      let referencePath = folder.path("reference-\(badness)-\(position).sqlite")
      let reference = try SessionStore(path: referencePath)
      try reference.importJSONLines(from: LinesInMemory(lines.prefix(committed)))
      #expect(try Self.contents(path) == Self.contents(referencePath), "\(badness) at line \(position)")
      #expect(try store.verify().allSatisfy(\.isIntact))
    }
  }

  /// A disk that fills mid-import: the import stops with the disk's error (not the line's),
  /// every batch committed before is whole, and the store verifies.
  @Test func aFullDiskMidImportKeepsExactlyTheCommittedBatches() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("full.sqlite")
    do { _ = try SessionStore(path: path) }
    let pages = try SQLiteConnection(path: path, mode: .readOnly).integer("PRAGMA page_count") ?? 0
    let capped = try SessionStore(path: path, options: StoreOptions(maximumPageCount: Int(pages) + 200))
    let big = JSONValue.string(String(repeating: "x", count: 1_500))
    let lines =
      try [Self.line(event("d", .start(.stack(stack("R+")))))]
      + (1...2_000).map { page in
        // Pushes and pops in turn, so snapshots stay small and the events fill the disk.
        try Self.line(event("d", page % 2 == 1 ? .push(["page": .number(Double(page)), "text": big]) : .pop()))
      }
    let failure = Self.failure { () throws(StoreError) in
      _ = try capped.importJSONLines(from: LinesInMemory(lines), batchSize: 50)
    }
    guard case .diskFull? = failure else {
      Issue.record("expected a full disk, got \(String(describing: failure))")
      return
    }
    let kept = try capped.history(of: sessionID("d")).count
    #expect(kept > 0 && kept < lines.count)
    #expect(kept % 50 == 0, "\(kept) events kept: not whole batches")
    #expect(try capped.verify().allSatisfy(\.isIntact))
  }
}
