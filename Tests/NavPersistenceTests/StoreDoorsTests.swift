import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// The store's async doors: a `read` whose calls share one snapshot, a `write` whose calls commit
/// together or not at all, and the errors that come out of each.
@Suite struct StoreDoorsTests {
  struct AppFailure: Error, Equatable {}

  @Test func aReadSeesOneSnapshotWhateverCommitsMeanwhile() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("doors.sqlite"))
    try await store.write { try $0.append(event("first", .start(.stack(stack("R+"))))) }
    let (before, after) = try await store.read { reader in
      let before = try reader.sessions().map(\.id.rawValue)
      // Another session commits on the writer while this read is open.
      try store.append(event("second", .start(.stack(stack("R+")))))
      return (before, try reader.sessions().map(\.id.rawValue))
    }
    #expect(before == ["first"])
    #expect(after == ["first"], "the read's second call saw a write that committed after it began")
    #expect(try await store.read { try $0.sessions() }.map(\.id.rawValue) == ["first", "second"])
  }

  @Test func aWriteCommitsItsCallsTogether() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("doors.sqlite"))
    let (seen, seenOutside) = try await store.write { writer in
      try writer.append(event("s", .start(.stack(stack("R+")))))
      try writer.append(event("s", .push(.string("A")), offset: 1))
      // The writer's reader sees what the transaction has written so far; a read on another
      // connection sees none of it before the commit.
      return (try writer.reader.state(of: sessionID("s")).seq, try store.sessions().count)
    }
    #expect(seen == 2)
    #expect(seenOutside == 0, "an append committed before the write's closure returned")
    #expect(try await store.read { try $0.history(of: sessionID("s")) }.count == 2)
  }

  @Test func aWriteThatThrowsKeepsNothingAndSaysWhose() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("doors.sqlite"))
    // The app's own error comes back as `.caller`, holding it unchanged.
    await #expect(throws: StoreError.caller(CallerError(AppFailure()))) {
      try await store.write { writer in
        try writer.append(event("s", .start(.stack(stack("R+")))))
        throw AppFailure()
      }
    }
    // The store's own error comes out as it is: a record from a state the session is not in.
    await #expect(throws: StoreError.stateMismatch(session: sessionID("s"), seq: 0)) {
      try await store.write { writer in
        try writer.append(event("other", .start(.stack(stack("R+")))))
        try writer.record(
          session: sessionID("s"), from: .stack(stack("R+")), to: .stack(stack("R+", "A")),
          at: Timestamp(millisecondsSince1970: 0))
      }
    }
    #expect(try await store.read { try $0.sessions() }.isEmpty, "a write that threw kept an event")
  }

  @Test func aFailedCallFailsItsWriteEvenWhenTheClosureCaughtIt() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("doors.sqlite"))
    let mismatch = StoreError.stateMismatch(session: sessionID("s"), seq: 0)
    await #expect(throws: mismatch) {
      try await store.write { writer in
        try writer.append(event("other", .start(.stack(stack("R+")))))
        _ = try? writer.record(
          session: sessionID("s"), from: .stack(stack("R+")), to: .stack(stack("R+", "A")),
          at: Timestamp(millisecondsSince1970: 0))
        return "the closure returned"
      }
    }
    #expect(try await store.read { try $0.sessions() }.isEmpty, "a write whose call failed kept an event")
  }

  @Test func bothDoorsRunTheirClosureOnTheStoresQueue() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("doors.sqlite"))
    #expect(SessionStore.isOnStoreQueue == false)
    #expect(try await store.read { _ in SessionStore.isOnStoreQueue })
    #expect(try await store.write { _ in SessionStore.isOnStoreQueue })
  }
}
