import NavCore
import NavPersistence
import NavTestSupport
import NavUpload
import Testing

/// The uploader's queue in the store: oldest sessions first, an acknowledgement that only moves
/// forward and never past the store's events, a hold that takes a session out of the queue until
/// it is released or acknowledged past, and forgetting that forgets the progress too.
@Suite struct UploadProgressTests {
  let store: SessionStore
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
    store = try SessionStore(path: folder.path("device.sqlite"))
    // b begins first, then a, then c: the queue is in that order whatever the ids say.
    for (session, minute) in [("b", 0), ("a", 1), ("c", 2)] {
      let start = 1_795_000_000_000 + Int64(minute) * 60_000
      try store.append(
        AnyEvent(
          session: sessionID(session), at: Timestamp(millisecondsSince1970: start), origin: .app,
          operation: .start(.stack([.root("home", withNavigation: true)]))))
      for step in 1...4 {
        try store.append(
          AnyEvent(
            session: sessionID(session), at: Timestamp(millisecondsSince1970: start + Int64(step) * 1_000),
            origin: .app,
            operation: step.isMultiple(of: 2) ? .pop(1) : .push("detail")))
      }
    }
  }

  @Test func everySessionWaitsFromItsFirstEventOldestFirst() throws {
    #expect(try store.uploadQueue(limit: 10).map(\.session.rawValue) == ["b", "a", "c"])
    #expect(try store.uploadQueue(limit: 2).map(\.session.rawValue) == ["b", "a"])
    #expect(try store.pendingUploads() == PendingUploads(sessions: 3, events: 15, heldSessions: 0))
  }

  @Test func anAcknowledgementOnlyMovesForwardAndNeverPastTheEvents() throws {
    try store.acknowledgeUpload(of: sessionID("a"), through: 3)
    try store.acknowledgeUpload(of: sessionID("a"), through: 2)  // a late answer
    #expect(try store.uploadProgress(of: sessionID("a")).acknowledgedSeq == 3)
    try store.acknowledgeUpload(of: sessionID("b"), through: 99)  // a head past the store's events
    #expect(try store.uploadProgress(of: sessionID("b")).acknowledgedSeq == 5)
    #expect(try store.uploadQueue(limit: 10).map(\.session.rawValue) == ["a", "c"])
    #expect(try store.pendingUploads() == PendingUploads(sessions: 2, events: 7, heldSessions: 0))
    // An unknown session is acknowledged nothing.
    try store.acknowledgeUpload(of: sessionID("nobody"), through: 3)
    #expect(
      try store.uploadProgress(of: sessionID("nobody"))
        == UploadProgress(session: sessionID("nobody"), eventCount: 0, acknowledgedSeq: 0))
  }

  @Test func aHoldTakesTheSessionOutOfTheQueueUntilReleasedOrPassed() throws {
    try store.acknowledgeUpload(of: sessionID("a"), through: 2)
    let hold = UploadHold(session: sessionID("a"), seq: 3, reason: .conflict, message: "another a")
    try store.holdUpload(hold)
    let held = try store.uploadProgress(of: sessionID("a"))
    #expect(held.acknowledgedSeq == 2 && held.hold == hold)
    #expect(try store.uploadQueue(limit: 10).map(\.session.rawValue) == ["b", "c"])
    #expect(try store.pendingUploads() == PendingUploads(sessions: 3, events: 13, heldSessions: 1))
    #expect(try store.heldUploads() == [hold])
    try store.releaseUpload(of: sessionID("a"))
    #expect(try store.heldUploads().isEmpty)
    #expect(try store.uploadProgress(of: sessionID("a")).hold == nil)
    #expect(try store.uploadQueue(limit: 10).map(\.session.rawValue) == ["b", "a", "c"])
    // A hold that an acknowledgement passes is over.
    try store.holdUpload(UploadHold(session: sessionID("c"), seq: 1, reason: .hash, message: "..."))
    try store.acknowledgeUpload(of: sessionID("c"), through: 5)
    #expect(try store.uploadProgress(of: sessionID("c")).hold == nil)
  }

  @Test func forgettingASessionForgetsItsProgress() throws {
    try store.holdUpload(UploadHold(session: sessionID("a"), seq: 1, reason: .conflict, message: "..."))
    _ = try store.forget([sessionID("a")], at: Timestamp(millisecondsSince1970: 1_795_000_900_000))
    #expect(
      try store.uploadProgress(of: sessionID("a"))
        == UploadProgress(session: sessionID("a"), eventCount: 0, acknowledgedSeq: 0))
    #expect(try store.pendingUploads() == PendingUploads(sessions: 2, events: 10, heldSessions: 0))
  }

  /// A day's spending adds up within its UTC day, keeps the expensive part apart, starts from
  /// zero the next day, and only the last 31 days are kept.
  @Test func spendingAddsUpByUTCDayAndOldDaysAreForgotten() throws {
    let midnight = Timestamp(millisecondsSince1970: 20_000 * 86_400_000)
    let lastMillisecond = Timestamp(millisecondsSince1970: midnight.millisecondsSince1970 - 1)
    #expect(UploadSpending.day(of: midnight) == 20_000 && UploadSpending.day(of: lastMillisecond) == 19_999)
    #expect(UploadSpending.day(of: Timestamp(millisecondsSince1970: -1)) == -1)
    try store.recordUploadSpending(bytes: 300, expensive: false, at: lastMillisecond)
    try store.recordUploadSpending(bytes: 1_000, expensive: false, at: midnight)
    let day = try store.recordUploadSpending(bytes: 250, expensive: true, at: midnight)
    #expect(day == UploadSpending(day: 20_000, bytes: 1_250, expensiveBytes: 250))
    #expect(try store.uploadSpending(on: lastMillisecond) == UploadSpending(day: 19_999, bytes: 300, expensiveBytes: 0))
    // The store keeps 31 days: a write 30 days later keeps midnight's day and forgets the one
    // before; a write 31 days later forgets both.
    func daysLater(_ days: Int64) -> Timestamp {
      Timestamp(millisecondsSince1970: midnight.millisecondsSince1970 + days * 86_400_000)
    }
    try store.recordUploadSpending(bytes: 1, expensive: false, at: daysLater(30))
    #expect(try store.uploadSpending(on: midnight).bytes == 1_250)
    #expect(try store.uploadSpending(on: lastMillisecond).bytes == 0)
    try store.recordUploadSpending(bytes: 2, expensive: false, at: daysLater(31))
    #expect(try store.uploadSpending(on: midnight).bytes == 0)
    #expect(try store.uploadSpending(on: daysLater(30)).bytes == 1)
    #expect(try store.uploadSpending(on: daysLater(31)).bytes == 2)
  }
}
