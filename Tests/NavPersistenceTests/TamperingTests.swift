import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// Editing history behind the store's back (raw SQL, with the append-only triggers dropped, as
/// someone with write access would) is found by `verify`, which names the first bad seq.
@Suite struct TamperingTests {
  let folder: TemporaryFolder
  let path: String

  init() throws {
    folder = try TemporaryFolder()
    path = folder.path("t.sqlite")
    let store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: 4))
    try store.append(event("s", .start(.stack(stack("R+home")))))
    for index in 0..<9 { try store.append(event("s", .push(.string("screen\(index)")), offset: Int64(index + 1))) }
    try store.append(event("other", .start(.stack(stack("R")))))
  }

  func tamper(_ sql: String) throws {
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      "DROP TRIGGER IF EXISTS events_are_append_only_update; DROP TRIGGER IF EXISTS events_are_append_only_delete; PRAGMA foreign_keys = OFF;"
    )
    try connection.execute(sql)
  }

  /// Session `s`'s first problem, as verify finds it.
  func firstFailure() throws -> VerificationResult.Failure? {
    let results = try SessionStore(path: path).verify()
    #expect(results.first { $0.session.rawValue == "other" }?.isIntact == true, "an untouched session stays intact")
    return results.first { $0.session.rawValue == "s" }?.failure
  }

  func firstBadSeq() throws -> Int? {
    try firstFailure()?.seq
  }

  @Test func theLogIsAppendOnlyThroughSQL() throws {
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    #expect(throws: SQLiteError.self) { try connection.execute("UPDATE events SET origin = 'user' WHERE seq = 3") }
    #expect(throws: SQLiteError.self) { try connection.execute("DELETE FROM events WHERE seq = 3") }
  }

  @Test func anIntactStoreVerifies() throws {
    #expect(try firstBadSeq() == nil)
  }

  @Test func oneChangedByteOfAnOperation() throws {
    try tamper("UPDATE events SET op = replace(op, 'screen4', 'screen5') WHERE session_id = 's' AND seq = 6")
    #expect(try firstFailure() == .init(seq: 6, problem: .hashMismatch))
  }

  @Test func aChangedTimeOrOrigin() throws {
    try tamper("UPDATE events SET at = at + 1 WHERE session_id = 's' AND seq = 3")
    #expect(try firstFailure() == .init(seq: 3, problem: .hashMismatch))
  }

  @Test func aDeletedEvent() throws {
    try tamper("DELETE FROM events WHERE session_id = 's' AND seq = 7")
    #expect(try firstFailure() == .init(seq: 7, problem: .missingEvent(seq: 7, nextStored: 8)))
  }

  /// A state is never worked out past a missing event: the state at seq 7 with event 7 or 6
  /// gone was once the state after 6, or after 5 and 7, said as if it were 7's.
  @Test(arguments: [(7, 7), (6, 6), (5, 5)])
  func aStateAcrossADeletedEventIsRefused(deleted: Int, missing: Int) throws {
    try tamper("DELETE FROM events WHERE session_id = 's' AND seq = \(deleted)")
    let store = try SessionStore(path: path)
    #expect(throws: StoreError.unreadableHistory(session: try SessionID("s"), seq: missing, .stateMissing)) {
      try store.state(of: try SessionID("s"), at: 7)
    }
    // Past the next snapshot (seq 8), the state is whole again.
    #expect(try store.state(of: try SessionID("s"), at: 9).seq == 9)
  }

  @Test func twoSwappedEvents() throws {
    try tamper(
      """
      UPDATE events SET seq = 1000 WHERE session_id = 's' AND seq = 5;
      UPDATE events SET seq = 5 WHERE session_id = 's' AND seq = 6;
      UPDATE events SET seq = 6 WHERE session_id = 's' AND seq = 1000;
      """)
    #expect(try firstBadSeq() == 5)
  }

  @Test func theLastEventRemoved() throws {
    try tamper("DELETE FROM events WHERE session_id = 's' AND seq = 10")
    #expect(try firstFailure() == .init(seq: 10, problem: .eventCountDiffers(recorded: 10, stored: 9)))
  }

  @Test func aChangedSnapshot() throws {
    try tamper("UPDATE snapshots SET state = replace(state, 'home', 'away') WHERE session_id = 's' AND seq = 4")
    #expect(try firstFailure() == .init(seq: 4, problem: .snapshotDiffers))
  }

  @Test func aSessionRowEmptiedOrDeletedIsStillChecked() throws {
    try tamper("UPDATE sessions SET event_count = 0 WHERE id = 's'")
    #expect(try firstBadSeq() == 1)
    try tamper("DELETE FROM sessions WHERE id = 's'")
    let result = try SessionStore(path: path).verify().first { $0.session.rawValue == "s" }
    #expect(result?.failure == .init(seq: 1, problem: .sessionRowMissing))
  }

  /// The row's times and depth decide which session is the latest, which ones a retention limit
  /// erases and how deep listings say a session is: verify holds each to the events.
  @Test(arguments: [
    ("UPDATE sessions SET last_at = last_at + 86400000 WHERE id = 's'", VerificationProblem.timeColumnsDiffer),
    ("UPDATE sessions SET first_at = first_at - 1 WHERE id = 's'", .timeColumnsDiffer),
    ("UPDATE sessions SET last_at = NULL WHERE id = 's'", .timeColumnsDiffer),
    ("UPDATE sessions SET depth = depth + 1 WHERE id = 's'", .depthDiffers),
  ])
  func aRowsTimesOrDepthEditedAreFound(_ sql: String, _ problem: VerificationProblem) throws {
    try tamper(sql)
    let result = try SessionStore(path: path).verify().first { $0.session.rawValue == "s" }
    #expect(result?.failure == .init(seq: 1, problem: problem))
  }

  @Test func anEventThatCannotBeHashedIsNamed() throws {
    try tamper("UPDATE events SET at = 9223372036854775807 WHERE session_id = 's' AND seq = 4")
    #expect(try firstFailure() == .init(seq: 4, problem: .unhashableEvent))
  }

  @Test func impossibleCountsAndTimesAreErrorsNotCrashes() throws {
    try tamper(
      "UPDATE sessions SET event_count = 9223372036854775807, first_at = -9223372036854775808, last_at = 9223372036854775807 WHERE id = 's'"
    )
    let store = try SessionStore(path: path)
    #expect(throws: StoreError.self) { try store.append(event("s", .goBackToRoot())) }
    var rows: [ExportRow] = []
    try store.export(.sessions) { rows.append($0) }
    // The duration is the session's forward time, kept in its own column: the impossible
    // first_at and last_at neither overflow it nor change it.
    let times = try store.history(of: sessionID("s")).map(\.at.millisecondsSince1970)
    let forward = zip(times.dropFirst(), times).reduce(Int64(0)) { $0 + max(0, $1.0 - $1.1) }
    #expect(rows.first { $0.values.first == .text("s") }?.values[4] == .integer(forward))
  }
}
