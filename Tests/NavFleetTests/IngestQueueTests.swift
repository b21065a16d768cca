import Foundation
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// Uploads written together (group commit) get what one transaction each would give them.
@Suite struct IngestQueueTests {
  let folder: TemporaryFolder
  let store: SessionStore
  init() throws {
    folder = try TemporaryFolder()
    store = try SessionStore(path: folder.path("q.sqlite"))
  }

  /// 48 uploads at once, each its own sessions' lines in batches of 20: every line accepted once,
  /// each upload's outcome and heads its own, the store whole and equal to one ingest of them all.
  @Test func uploadsAtOnceAreEachTakenWhole() async throws {
    let queue = IngestQueue(store: store, linesPerTransaction: 200)
    let uploads = (0..<48).map { SessionLines.bytes(prefix: "u\($0)", sessions: 2, events: 10) }
    let outcomes = try await withThrowingTaskGroup(of: (Int, UploadOutcome).self) { group in
      for (number, lines) in uploads.enumerated() {
        group.addTask { (number, try await queue.ingest(lines)) }
      }
      var outcomes: [Int: UploadOutcome] = [:]
      for try await (number, outcome) in group { outcomes[number] = outcome }
      return outcomes
    }
    for (number, lines) in uploads.enumerated() {
      let outcome = try #require(outcomes[number])
      #expect(outcome.accepted == lines.count && outcome.rejected.isEmpty, "upload \(number)")
      #expect(Set(outcome.heads.keys.map(\.rawValue)) == ["u\(number)-0", "u\(number)-1"])
      #expect(outcome.heads.values.allSatisfy { $0.seq == 10 })
    }
    let results = try await store.read { try $0.verify() }
    #expect(results.count == 96 && results.allSatisfy { $0.failure == nil && $0.eventCount == 10 })
    // Sent at once, the uploads waited for the writer and shared transactions.
    #expect(queue.transactionCount < 48, "\(queue.transactionCount) transactions for 48 uploads")
  }

  /// The same session sent by several uploads at once: its lines are stored once, the first
  /// upload written takes them, the others find them stored (duplicates), whatever the grouping.
  @Test func aSessionSentTwiceAtOnceIsStoredOnce() async throws {
    let queue = IngestQueue(store: store, linesPerTransaction: 30)
    let lines = SessionLines.bytes(prefix: "same", sessions: 1, events: 25)
    let outcomes = try await withThrowingTaskGroup(of: UploadOutcome.self) { group in
      for _ in 0..<6 { group.addTask { try await queue.ingest(lines) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(outcomes.map(\.accepted).sorted() == [0, 0, 0, 0, 0, 25])
    #expect(outcomes.allSatisfy { $0.accepted + $0.duplicates == 25 && $0.rejected.isEmpty })
    #expect(try await store.read { try $0.verify() }.map(\.eventCount) == [25])
  }
}
