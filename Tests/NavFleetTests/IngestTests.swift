import Foundation
import NavContract
@_spi(Internals) import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// An upload's lines, each on its own: every outcome of the collector's contract, a resend that
/// changes nothing, and a bad line that rejects only itself and its session's later lines.
@Suite struct IngestTests {
  let folder: TemporaryFolder
  let store: SessionStore
  init() throws {
    folder = try TemporaryFolder()
    store = try SessionStore(path: folder.path("i.sqlite"))
  }

  static let home = AnyCoordinator.stack(stack("R+home"))

  func lines(_ events: [AnyEvent]) throws -> [ArraySlice<UInt8>] {
    try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }
  }

  @Test func everyOutcomeOfTheContract() throws {
    try store.append(event("known", .start(Self.home)))
    try store.append(event("other", .start(Self.home)))
    let stored = try store.history(of: sessionID("known"))[0]
    var wrongHash = event("h", .start(Self.home), seq: 1)
    wrongHash.hash = String(repeating: "0", count: 64)
    var upload = try lines([
      event("a", .start(Self.home), seq: 1),  // 1 accepted
      stored,  // 2 duplicate
      event("known", .pop(), seq: 2),  // 3 illegal: pop at the root
      event("b", .push(["screen": "x"]), seq: 1),  // 4 unknown-session
      event("c", .start(Self.home), seq: 3),  // 5 gap: seq 3 of a new session
      event("other", .start(.stack(stack("R+other"))), seq: 1),  // 6 conflict: seq 1 holds another event
      wrongHash,  // 7 hash
    ])
    upload.append(ArraySlice(#"{"session":"d","at":"2026-11-21T10:00:00.000Z","op":{"op":"fly"}}"#.utf8))  // 8 invalid
    upload.append(ArraySlice("   ".utf8))  // 9 blank: skipped
    let outcome = try store.ingest(upload)
    func reason(_ line: Int) -> RejectionReason? {
      outcome.rejected.first { $0.line == line }?.rejection.reason
    }
    #expect(outcome.lines.map(\.number) == Array(1...8))
    #expect(outcome.lines[0].outcome == .accepted && outcome.lines[1].outcome == .duplicate)
    #expect(
      (3...8).map(reason) == [.illegal, .unknownSession, .gap, .conflict, .hash, .invalid].map(Optional.some))
    #expect(outcome.accepted == 1 && outcome.duplicates == 1 && outcome.rejected.count == 6)
    #expect(outcome.heads[sessionID("a")]?.seq == 1 && outcome.heads[sessionID("known")]?.seq == 1)
    #expect(outcome.heads[sessionID("b")] == SessionHead(seq: 0, hash: nil))
    #expect(outcome.heads[sessionID("a")]?.hash == (try store.history(of: sessionID("a"))).last?.hash)
    #expect(outcome.rejected.first { $0.line == 8 }?.rejection.message.contains("fly") == true)
  }

  /// Lines of a session, some dated past `latest`, beside another session's: what a collector
  /// whose clock reads `latest` less a day is sent.
  static func linesFromTheFuture() throws -> (lines: [ArraySlice<UInt8>], latest: Timestamp) {
    let latest = Timestamp(millisecondsSince1970: 1_795_000_000_000 + 10_000)
    let events = [
      event("now", .start(home), offset: 0),  // 1 accepted
      event("now", .push(["screen": "a"]), offset: 10_000),  // 2 accepted: at the limit
      event("now", .push(["screen": "b"]), offset: 10_001),  // 3 from-the-future
      event("now", .push(["screen": "c"]), offset: 1),  // 4 gap: after its session's refusal
      event("later", .start(home), offset: 4_000_000_000_000),  // 5 from-the-future: the year 2150
      event("other", .start(home), offset: 5),  // 6 accepted
    ]
    return (try events.map { ArraySlice(try WireFormat.canonicalBytes($0)) }, latest)
  }

  @Test func aLineDatedPastTheCollectorsClockIsRefusedAndItsSessionsLaterLines() throws {
    let (upload, latest) = try Self.linesFromTheFuture()
    let outcome = try store.ingest(upload, datedUpTo: latest)
    let reasons = outcome.lines.map { line -> String in
      switch line.outcome {
      case .accepted: "accepted"
      case .duplicate: "duplicate"
      case .rejected(let rejection): rejection.reason.rawValue
      }
    }
    #expect(reasons == ["accepted", "accepted", "from-the-future", "gap", "from-the-future", "accepted"])
    let future = try #require(outcome.rejected.first { $0.line == 3 })
    #expect(future.rejection.message.contains("the device's clock is wrong") && future.rejection.seq == nil)
    #expect(outcome.heads[sessionID("now")]?.seq == 2 && outcome.heads[sessionID("later")]?.seq == 0)
    #expect(try store.sessions().map(\.id.rawValue).sorted() == ["now", "other"])
    // Without a limit (an import), the same lines are taken as they come.
    let other = try SessionStore(path: folder.path("j.sqlite"))
    #expect(try other.ingest(upload).accepted == 6)
  }

  @Test func aResendGivesOnlyDuplicatesAndChangesNothing() throws {
    let session = RandomSession.make(id: "r", using: &SeededRandomBox.shared.generator, length: 30).events
    let upload = try lines(
      session.enumerated().map { index, event in
        var numbered = event
        numbered.seq = index + 1
        return numbered
      })
    let first = try store.ingest(upload)
    #expect(first.accepted == session.count && first.rejected.isEmpty)
    let before = try tableDump(folder.path("i.sqlite"))
    let again = try store.ingest(upload)
    #expect(again.duplicates == session.count && again.accepted == 0 && again.rejected.isEmpty)
    #expect(try tableDump(folder.path("i.sqlite")) == before)
    #expect(again.heads == first.heads)
  }

  @Test func aBadLineRejectsItselfAndItsSessionsLaterLinesOnly() throws {
    let upload = try lines([
      event("x", .start(Self.home), seq: 1),
      event("y", .start(Self.home), seq: 1),
      event("x", .pop(), seq: 2, origin: .user),  // illegal
      event("y", .push(["screen": "detail"]), offset: 10, seq: 2),
      event("x", .push(["screen": "detail"]), offset: 20, seq: 2),  // gap: after x's rejected line
      event("y", .pop(), offset: 30, seq: 3),
    ])
    let outcome = try store.ingest(upload)
    #expect(outcome.lines.map(\.outcome.isStored) == [true, true, false, true, false, true])
    #expect(outcome.rejected.map(\.rejection.reason) == [.illegal, .gap])
    #expect(outcome.heads[sessionID("x")]?.seq == 1 && outcome.heads[sessionID("y")]?.seq == 3)
    #expect(try store.verify().allSatisfy(\.isIntact))
  }
}

extension LineOutcome {
  var isStored: Bool {
    switch self {
    case .accepted, .duplicate: true
    case .rejected: false
    }
  }
}

/// A seeded generator shared by the tests of this file that want one value.
final class SeededRandomBox: @unchecked Sendable {
  static let shared = SeededRandomBox()
  var generator = SeededRandom(seed: 31)
}
