import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// Creating, appending, reading back and reopening a store.
@Suite struct StoreBasicsTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  @Test func appendsAndReadsBack() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    #expect(try store.schemaVersion() == SessionStore.latestSchemaVersion)
    let first = try store.append(event("s-1", .start(.stack(stack("R+home")))))
    #expect(first.event.seq == 1)
    #expect(first.event.hash?.count == 64)
    try store.append(event("s-1", .push("list"), offset: 10, origin: .app))
    let back = try store.append(event("s-1", .pop(), offset: 20, origin: .user))
    #expect(back.event.seq == 3)
    #expect(back.state == .stack(stack("R+home")))
    #expect(try store.state(of: sessionID("s-1"), at: 2).state == .stack(stack("R+home", "↑list")))
    let history = try store.history(of: sessionID("s-1"))
    #expect(history.map(\.seq) == [1, 2, 3])
    #expect(history.map(\.origin) == [.app, .app, .user])
    #expect(history.last?.hash == back.event.hash)
    let sessions = try store.sessions()
    #expect(sessions.map(\.id.rawValue) == ["s-1"])
    #expect(sessions.first?.eventCount == 3)
    #expect(sessions.first?.firstAt?.millisecondsSince1970 == 1_795_000_000_000)
    #expect(sessions.first?.lastAt?.millisecondsSince1970 == 1_795_000_000_020)
    #expect(sessions.first?.depth == 1)
  }

  @Test func aBatchReportsEveryEventAsStored() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    let batch = [
      event("s", .start(.stack(stack("R+home")))), event("s", .push("a"), offset: 1), event("s", .push("b"), offset: 2),
    ]
    let outcome = try store.append(contentsOf: batch)
    #expect(outcome.events.map(\.seq) == [1, 2, 3])
    #expect(outcome.alreadyStored == 0)
    #expect(outcome.events == (try store.history(of: sessionID("s"))))
    // The same events again, claiming their seqs: skipped, and reported as stored.
    // The last two again, claiming their seqs, then one new event: the two are skipped.
    let replayed = outcome.events.suffix(2).map {
      var claimed = $0
      claimed.hash = nil
      return claimed
    }
    let again = try store.append(contentsOf: replayed + [event("s", .pop(), offset: 3)])
    #expect(again.alreadyStoredPositions == [0, 1])
    #expect(again.alreadyStored == 2)
    #expect(Array(again.events.prefix(2)) == Array(outcome.events.suffix(2)))
    #expect(again.events.last?.seq == 4)
    #expect(try store.state(of: sessionID("s")).state == .stack(stack("R+home", "↑a")))
  }

  /// A refused operation puts the session's cached state back untouched: the events after it
  /// apply to the state before it, on the same store, without a reopen.
  @Test func appendsAfterARefusalApplyToTheStateBeforeIt() throws {
    let path = folder.path("s.sqlite")
    let store = try SessionStore(path: path)
    try store.append(event("s", .start(.stack(stack("R+home")))))
    try store.append(event("s", .push("a"), offset: 1))
    #expect(throws: StoreError.self) { try store.append(event("s", .dismiss(), offset: 2)) }
    #expect(throws: StoreError.self) {
      try store.append(contentsOf: [event("s", .push("b"), offset: 2), event("s", .pop(5), offset: 3)])
    }
    try store.append(event("s", .push("c"), offset: 4))
    try store.append(event("s", .presentSheet("d"), offset: 5))
    let expected = AnyCoordinator.stack(stack("R+home", "↑a", "↑c") + [.sheet("d")])
    #expect(try store.state(of: sessionID("s")).state == expected)
    #expect(try store.history(of: sessionID("s")).map(\.seq) == [1, 2, 3, 4])
    // Another connection, which rehydrates from the file, agrees.
    #expect(try SessionStore(path: path).state(of: sessionID("s")).state == expected)
    #expect(try store.verify().allSatisfy { $0.failure == nil })
  }

  @Test func theHashIsTheSpecsChain() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    let start = try store.append(event("s", .start(.stack(stack("R+home")))))
    let push = try store.append(event("s", .push("x")))
    var withoutHash = start.event
    withoutHash.hash = nil
    let expected = try HashChain.hash(of: withoutHash, after: HashChain.genesis)
    #expect(start.event.hash == HashChain.hex(expected))
    #expect(push.event.hash == HashChain.hex(try HashChain.hash(of: push.event, after: expected)))
  }

  @Test func everythingSurvivesCloseAndReopen() throws {
    let path = folder.path("s.sqlite")
    var written: [AnyEvent] = []
    func snapshots() throws -> [Int] {
      let connection = try SQLiteConnection(path: path, mode: .readOnly)
      let text = try connection.text("SELECT group_concat(seq) FROM (SELECT seq FROM snapshots ORDER BY seq)")
      return (text ?? "").split(separator: ",").compactMap { Int($0) }
    }
    let snapshotsWritten: [Int]
    do {
      let store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: 2))
      written.append(try store.append(event("a", .start(.stack(stack("R+"))))).event)
      for index in 0..<5 {
        written.append(try store.append(event("a", .presentSheet(.number(Double(index)), withNavigation: true))).event)
      }
      written.append(try store.append(event("b", .start(.tabs([.stack(stack("R"))], selected: 0)))).event)
      snapshotsWritten = try snapshots()
    }
    let reopened = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    #expect(try reopened.history(of: sessionID("a")) + reopened.history(of: sessionID("b")) == written)
    #expect(try reopened.verify().allSatisfy(\.isIntact))
    #expect(try reopened.state(of: sessionID("a")).state.routes?.count == 6)
    #expect(try snapshots() == snapshotsWritten && snapshotsWritten.first == 2)
  }

  @Test func seqClaimsAndDuplicates() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    let start = try store.append(event("s", .start(.stack(stack("R+"))), seq: 1))
    // The same event again is skipped: re-importing a file is harmless.
    let again = try store.append(start.event)
    #expect(again.wasAlreadyStored)
    #expect(try store.history(of: sessionID("s")).count == 1)
    // A different event claiming seq 1 is a conflict; so is a gap.
    #expect(throws: StoreError.conflict(session: sessionID("s"), expected: 1, actual: 2)) {
      try store.append(event("s", .start(.stack(stack("R"))), seq: 1))
    }
    #expect(throws: StoreError.conflict(session: sessionID("s"), expected: 5, actual: 2)) {
      try store.append(event("s", .push("x"), seq: 5))
    }
    // A claimed hash must be the store's.
    var forged = event("s", .push("x"), seq: 2)
    forged.hash = String(repeating: "0", count: 64)
    #expect(throws: StoreError.self) { try store.append(forged) }
    #expect(try store.append(event("s", .push("x"), seq: 2)).event.seq == 2)
  }

  @Test func readingErrorsNameWhatIsMissing() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    try store.append(event("s", .start(.stack(stack("R+")))))
    #expect(throws: StoreError.unknownSession(sessionID("nope"))) { try store.history(of: sessionID("nope")) }
    #expect(throws: StoreError.seqBeyondHistory(session: sessionID("s"), seq: 2, last: 1)) {
      try store.state(of: sessionID("s"), at: 2)
    }
    #expect(throws: StoreError.seqBeyondHistory(session: sessionID("s"), seq: 0, last: 1)) {
      try store.state(of: sessionID("s"), at: 0)
    }
  }

  /// A store that no program has open is its `.sqlite` file alone: the writer, closed last,
  /// moves the write-ahead log into it. (Closed after a reader, the events stayed in `-wal`, and
  /// a copy of the file held nothing.)
  @Test func aReleasedStoreIsOneFileThatCopiesAlone() throws {
    let path = folder.path("one.sqlite")
    func walSize() -> Int? { (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int }
    do {
      let store = try SessionStore(path: path)
      try store.append(event("s", .start(.stack(stack("R+home")))))
      try store.append(event("s", .push("list"), offset: 1))
      #expect(try store.sessions().count == 1)  // a read, on a reader of its own
      #expect((walSize() ?? 0) > 0, "while the store is open, its recent writes are in the -wal file")
    }
    #expect(walSize() == nil, "the -wal file is gone once the store is released")
    try FileManager.default.copyItem(atPath: path, toPath: folder.path("copy.sqlite"))
    let copy = try SessionStore(path: folder.path("copy.sqlite"), options: StoreOptions(access: .readOnly))
    #expect(try copy.history(of: sessionID("s")).count == 2)
  }

  @Test func recordingFromBeforeAndAfter() throws {
    let store = try SessionStore(path: folder.path("s.sqlite"))
    let id = sessionID("typed")
    let home: Coordinator<TypedScreen> = .stack([.root(.home, withNavigation: true)])
    let detail: Coordinator<TypedScreen> = .stack([
      .root(.home, withNavigation: true), .push(.detail(id: 3)), .sheet(.settings),
    ])
    let started = try store.record(
      session: id, from: nil, to: home, at: Timestamp(millisecondsSince1970: 0), cause: ["appLaunched": true])
    #expect(started.map(\.event.operation.name) == ["start"])
    let recorded = try store.record(
      session: id, from: home, to: detail, at: Timestamp(millisecondsSince1970: 5), cause: ["tapped": 3])
    #expect(recorded.map(\.event.operation.name) == ["push", "presentSheet"])
    #expect(recorded.allSatisfy { $0.event.cause == ["tapped": 3] })
    #expect(throws: StoreError.stateMismatch(session: id, seq: 3)) {
      try store.record(session: id, from: home, to: detail, at: Timestamp(millisecondsSince1970: 9))
    }
  }
}

enum TypedScreen: Codable, Hashable, Sendable {
  case home
  case detail(id: Int)
  case settings
}
