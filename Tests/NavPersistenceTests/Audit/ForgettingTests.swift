import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// Forgetting sessions through the store: tombstones, older checkpoints still verifying, space
/// given back, and nothing else touched.
@Suite struct ForgettingTests {
  let folder: TemporaryFolder
  let path: String
  let signer: NoteSigner
  let time = Timestamp(millisecondsSince1970: 1_795_000_500_000)

  init() throws {
    folder = try TemporaryFolder()
    path = folder.path("f.sqlite")
    signer = try NoteSigner(name: "auditor")
    let store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: 4))
    for (index, session) in ["alpha-session", "beta-session", "gamma-session"].enumerated() {
      try store.append(event(session, .start(.stack(stack("R+home"))), offset: Int64(index * 1_000)))
      for step in 0..<6 {
        try store.append(
          event(session, .push(.string("\(session)-screen\(step)")), offset: Int64(index * 1_000 + step + 1)))
      }
    }
  }

  var store: SessionStore { get throws { try SessionStore(path: path) } }

  /// The dump's rows, without those of `session` and of the tombstones table.
  func rows(without session: String) throws -> [String] {
    try tableDump(path).split(separator: "\n").map(String.init).filter {
      !$0.contains(session) && !$0.hasPrefix("tombstones:")
    }
  }

  @Test func forgettingLeavesATombstoneAndTouchesNothingElse() throws {
    let before = try rows(without: "beta-session")
    let tombstones = try store.forget([sessionID("beta-session")], at: time)
    #expect(tombstones.map(\.session) == [sessionID("beta-session")])
    #expect(tombstones.first?.lastSeq == 7 && tombstones.first?.forgottenAt == time)
    #expect(try store.tombstones() == tombstones)
    #expect(try rows(without: "beta-session") == before)
    let left = try tableDump(path).split(separator: "\n").filter { $0.contains("beta-session") }
    #expect(left.allSatisfy { $0.hasPrefix("tombstones:") }, "only the tombstone names the session: \(left)")
    #expect(left.count == 1)
    #expect(!(try tableDump(path)).contains("beta-session-screen"), "nothing of what it showed is left")
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  @Test func anOlderCheckpointReportsTheSessionForgottenNotTampered() throws {
    let note = try store.checkpoint(signedBy: signer, at: time)
    try store.forget([sessionID("alpha-session")], at: time)
    var statuses: [String: CheckpointFinding.Status] = [:]
    let audit = try store.audit(against: note, key: signer.verifier) { statuses[$0.entry.session.rawValue] = $0.status }
    #expect(audit.problems == 0 && audit.forgotten == 1)
    #expect(statuses["alpha-session"] == .forgotten(at: time))
    #expect(statuses["beta-session"] == .intact(later: 0))
  }

  @Test func aSessionDeletedWithoutATombstoneIsStillTampering() throws {
    let note = try store.checkpoint(signedBy: signer, at: time)
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    #expect(throws: SQLiteError.self) {
      try connection.execute("DELETE FROM events WHERE session_id = 'gamma-session'")
    }
    try connection.execute(
      "DROP TRIGGER events_are_append_only_delete; DELETE FROM snapshots WHERE session_id = 'gamma-session'; DELETE FROM events WHERE session_id = 'gamma-session'; DELETE FROM sessions WHERE id = 'gamma-session';"
    )
    let audit = try store.audit(against: note, key: signer.verifier)
    #expect(audit.problems == 1 && audit.firstProblem?.status == .vanished)
  }

  /// A tombstone counts only where it is consistent with the checkpoint: a session cut short
  /// and then forgotten is still a truncation; a tombstone made up by SQL, dated before the
  /// checkpoint or with another chain value, is found.
  @Test func aTombstoneDoesNotHideWhatCameBeforeIt() throws {
    let note = try store.checkpoint(signedBy: signer, at: time)
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      DROP TRIGGER events_are_append_only_delete;
      DELETE FROM snapshots WHERE session_id = 'alpha-session' AND seq > 4;
      DELETE FROM events WHERE session_id = 'alpha-session' AND seq > 4;
      UPDATE sessions SET event_count = 4, head_hash = (SELECT hash FROM events WHERE session_id = 'alpha-session' AND seq = 4)
        WHERE id = 'alpha-session';
      CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
      WHEN NOT EXISTS (SELECT 1 FROM tombstones WHERE session_id = OLD.session_id)
      BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
      """)
    try store.forget([sessionID("alpha-session")], at: time)
    // Made up by SQL: dated before the checkpoint, and with another chain value at its seq.
    try connection.execute(
      """
      INSERT INTO tombstones VALUES ('beta-session', \(time.millisecondsSince1970 - 1), 7, (SELECT head_hash FROM sessions WHERE id = 'beta-session'));
      INSERT INTO tombstones VALUES ('gamma-session', \(time.millisecondsSince1970 + 1), 7, zeroblob(32));
      DELETE FROM snapshots WHERE session_id IN ('beta-session', 'gamma-session');
      DELETE FROM events WHERE session_id IN ('beta-session', 'gamma-session');
      DELETE FROM sessions WHERE id IN ('beta-session', 'gamma-session');
      """)
    var statuses: [String: CheckpointFinding.Status] = [:]
    let audit = try store.audit(against: note, key: signer.verifier) { statuses[$0.entry.session.rawValue] = $0.status }
    #expect(statuses["alpha-session"] == .truncated(events: 4))
    #expect(
      statuses["beta-session"]
        == .forgottenBeforeCheckpoint(at: Timestamp(millisecondsSince1970: time.millisecondsSince1970 - 1)))
    #expect(statuses["gamma-session"] == .rewritten)
    #expect(audit.problems == 3 && audit.forgotten == 0)
  }

  @Test func forgettingIsAllOrNothing() throws {
    let before = try tableDump(path)
    #expect(throws: StoreError.unknownSession(sessionID("nobody"))) {
      try store.forget([sessionID("alpha-session"), sessionID("nobody")], at: time)
    }
    #expect(try tableDump(path) == before)
    try store.forget([sessionID("alpha-session")], at: time)
    let afterFirst = try tableDump(path)
    #expect(throws: StoreError.forgottenSession(sessionID("alpha-session"), at: time)) {
      try store.forget([sessionID("alpha-session"), sessionID("beta-session")], at: time)
    }
    #expect(try tableDump(path) == afterFirst)
  }

  @Test func aForgottenIdIsNotUsedAgain() throws {
    try store.forget([sessionID("gamma-session")], at: time)
    #expect(throws: StoreError.forgottenSession(sessionID("gamma-session"), at: time)) {
      try store.append(event("gamma-session", .start(.stack(stack("R+home")))))
    }
  }

  @Test func pruneForgetsExactlyTheSessionsLastActiveBeforeTheCutoff() throws {
    // alpha ends at +6 ms, beta at +1,006 ms, gamma at +2,006 ms.
    let cutoff = Timestamp(millisecondsSince1970: 1_795_000_000_000 + 1_500)
    #expect(try store.sessions(lastBefore: cutoff) == [sessionID("alpha-session"), sessionID("beta-session")])
    let tombstones = try store.prune(before: cutoff, at: time)
    #expect(tombstones.map(\.session.rawValue) == ["alpha-session", "beta-session"])
    #expect(try store.sessions().map(\.id.rawValue) == ["gamma-session"])
    #expect(try store.prune(before: cutoff, at: time).isEmpty)
  }

  @Test func spaceIsGivenBackOnRequest() throws {
    let big = try store
    try big.append(event("big-session", .start(.stack(stack("R+home")))))
    let payload = JSONValue.string(String(repeating: "x", count: 2_000))
    for step in 0..<1_000 {
      // Pushed and popped in turn: a thousand screens of 2 KB, on a stack that stays short.
      try big.append(
        event(
          "big-session", .push(.object(["detail": payload, "n": .number(Double(step))])), offset: Int64(2 * step + 1)))
      try big.append(event("big-session", .pop(), offset: Int64(2 * step + 2)))
    }
    try big.forget([sessionID("big-session")], at: time)
    let (before, after) = try big.reclaimSpace()
    #expect(before > 2_000_000, "the session's events filled the file (\(before) bytes)")
    #expect(after < before / 4, "VACUUM gave the space back: \(before) → \(after) bytes")
    #expect(try big.verify().allSatisfy(\.isIntact))
  }
}
