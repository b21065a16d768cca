import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// Reads run on connections of their own: while an import holds the writer, halfway through a
/// batch, another thread's reads return at once with exactly the batches committed so far,
/// reads from inside the import's own callback work too, and a write from there is refused
/// instead of waiting for itself.
@Suite struct ReadersBesideWriterTests {
  static let sessions = (0..<10).map { "c\($0)" }
  static let rounds = 8

  /// Round 0 starts every session; round r pushes `p<r>` onto each: one batch of 10 lines per round.
  static func importLines() throws -> [UInt8] {
    var lines: [String] = []
    for round in 0..<rounds {
      for session in sessions {
        let operation: AnyOperation = round == 0 ? .start(.stack(stack("R+home"))) : .push(.string("p\(round)"))
        lines.append(try WireFormat.canonicalString(event(session, operation, offset: Int64(round))))
      }
    }
    return Array(lines.joined(separator: "\n").utf8)
  }

  /// The state of every session after `rounds` rounds.
  static func expectedState(afterRounds rounds: Int) -> AnyCoordinator {
    .stack(stack("R+home") + (1..<max(1, rounds)).map { .push(.string("p\($0)")) })
  }

  /// What a reader sees, as text: each session's event count, and c3's state and history length.
  static func observe(_ store: SessionStore) throws -> (counts: [Int], state: AnyCoordinator?, history: Int) {
    let summaries = try store.sessions()
    guard !summaries.isEmpty else { return ([], nil, 0) }
    return (
      summaries.map(\.eventCount), try store.state(of: sessionID("c3")).state,
      try store.history(of: sessionID("c3")).count
    )
  }

  @Test func readersSeeOnlyCommittedBatchesWhileAnImportWrites() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("busy.sqlite")
    try Data(Self.importLines()).write(to: URL(fileURLWithPath: folder.path("in.jsonl")))
    let store = try SessionStore(path: path)
    let problems = Protected<[String]>([])
    var pauses = 0

    let summary = try store.importJSONLines(
      from: LineReader(handle: try #require(FileHandle(forReadingAtPath: folder.path("in.jsonl")))), batchSize: 10
    ) { lines, _ in
      // Halfway through a batch: 5 of this round's lines are written, not committed.
      guard lines % 10 == 5 else { return }
      pauses += 1
      let committed = lines / 10
      let expectedCounts = committed == 0 ? [] : Array(repeating: committed, count: Self.sessions.count)
      let expectedState = committed == 0 ? nil : Self.expectedState(afterRounds: committed)

      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        do {
          let seen = try Self.observe(store)
          if seen.counts != expectedCounts || seen.state != expectedState || seen.history != committed {
            problems.withLock {
              $0.append("line \(lines): another thread saw \(seen), not \(committed) committed rounds")
            }
          }
        } catch {
          problems.withLock { $0.append("line \(lines): another thread's read failed: \(error)") }
        }
        done.signal()
      }
      if done.wait(timeout: .now() + 20) == .timedOut {
        problems.withLock { $0.append("line \(lines): a read on another thread waited for the writer") }
      }

      do {
        let seen = try Self.observe(store)
        #expect(seen.counts == expectedCounts, "a read inside the import's callback, line \(lines)")
        #expect(seen.state == expectedState)
      } catch {
        Issue.record("line \(lines): a read inside the import's callback failed: \(error)")
      }
      #expect(throws: StoreError.reentrantWrite) {
        try store.append(event("elsewhere", .start(.stack(stack("R")))))
      }
    }
    #expect(pauses == Self.rounds)
    #expect(problems.withLock { $0 } == [])
    #expect(summary.sessions == Self.sessions.count)
    #expect(summary.appended == Self.sessions.count * Self.rounds)
    #expect(try Self.observe(store).counts == Array(repeating: Self.rounds, count: Self.sessions.count))
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func aReadInsideAnExportAndAWriteInsideAReadBothWork() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("nested.sqlite"))
    try store.append(event("a", .start(.stack(stack("R+home")))))
    var exported = 0
    try store.export(.events) { _ in
      exported += 1
      // A read needs no lock a read holds; a write is not held up by a read in WAL mode.
      #expect(try store.state(of: sessionID("a")).seq == 1)
      try store.append(event("b", .start(.stack(stack("R")))))
    }
    #expect(exported == 1, "the export's snapshot began before the write inside it")
    #expect(try store.sessions().map(\.id) == [sessionID("a"), sessionID("b")])
  }

  @Test func asyncCallsGiveWhatTheSynchronousOnesGive() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("async.sqlite"))
    try Data(Self.importLines()).write(to: URL(fileURLWithPath: folder.path("in.jsonl")))
    let reader = LineReader(handle: try #require(FileHandle(forReadingAtPath: folder.path("in.jsonl"))))
    let summary = try await store.importJSONLines(from: reader, batchSize: 25)
    #expect(summary.appended == 80)
    #expect(summary.sessions == 10)
    try await store.write { try $0.append(event("c0", .pop(), offset: 100)) }
    async let state = store.read { try $0.state(of: sessionID("c0")) }
    async let sessions = store.read { try $0.sessions() }
    async let verified = store.read { try $0.verify() }
    #expect(try await state.state == Self.expectedState(afterRounds: Self.rounds - 1))
    #expect(try await sessions.map(\.eventCount) == [9] + Array(repeating: 8, count: 9))
    #expect(try await verified.allSatisfy(\.isIntact))
    #expect(try await store.read { try $0.latestSession() }?.id == sessionID("c0"))
    #expect(try await store.read { try $0.history(of: sessionID("c0")) }.count == 9)
    do {
      _ = try await store.read { try $0.state(of: sessionID("missing")) }
      Issue.record("a missing session was found")
    } catch {
      #expect(error == .unknownSession(sessionID("missing")))
    }
  }
}
