import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// Pulls resumed from their cursors, while uploads keep arriving in any order of the devices'
/// times and sessions are forgotten: together they hand out what one export at the end holds
/// (and the forgotten sessions' rows handed out before), and no row twice.
@Suite struct IncrementalExportProperties {
  /// How the store receives sessions: some restoring the one before (a chain whose middle may
  /// arrive after its end, which moves the end's journey), each split in pieces (an upload
  /// each), the pieces of all of them in a random order that keeps each session's own, written
  /// a few at a time, with a pull after some of the writes, and sometimes a session whose events
  /// have all arrived forgotten before it.
  struct Arrival {
    var writes: [[AnyEvent]]
    var pullsAfter: Set<Int>
    var forgettingAfter: [Int: SessionID] = [:]
  }

  static func arrival(using rng: inout some RandomNumberGenerator) -> Arrival {
    var sessions = (0..<Int.random(in: 1...4, using: &rng)).map { index in
      ScreenViewVisitProperties.session(index, using: &rng)
    }
    for index in sessions.indices.dropFirst() where Bool.random(using: &rng) {
      guard case .start(let state, _, _, _) = sessions[index][0].operation.kind else { continue }
      // A seq past the session's end: the store has no state there to check the restore against.
      let link = SessionLink(session: sessions[index - 1][0].session, seq: 100_000)
      sessions[index][0].operation = .start(state, restoredFrom: link)
    }
    var pieces: [[[AnyEvent]]] = sessions.map { events in
      var left = events[...]
      var split: [[AnyEvent]] = []
      while !left.isEmpty {
        let size = Int.random(in: 1...6, using: &rng)
        split.append(Array(left.prefix(size)))
        left = left.dropFirst(size)
      }
      return split
    }
    var order: [[AnyEvent]] = []
    while let index = pieces.indices.filter({ !pieces[$0].isEmpty }).randomElement(using: &rng) {
      order.append(pieces[index].removeFirst())
    }
    var writes: [[AnyEvent]] = []
    var rest = order[...]
    while !rest.isEmpty {
      let count = Int.random(in: 1...3, using: &rng)
      writes.append(rest.prefix(count).flatMap { $0 })
      rest = rest.dropFirst(count)
    }
    let pulls = Set(writes.indices.filter { _ in Bool.random(using: &rng) })
    // A session is forgotten once its last event is written, before a pull: the one that holds
    // the highest receipt number when its last event came in the write just before.
    var forgetting: [Int: SessionID] = [:]
    var written: [SessionID: Int] = [:]
    for (index, write) in writes.enumerated() {
      for event in write { written[event.session, default: 0] += 1 }
      guard pulls.contains(index), Int.random(in: 0..<3, using: &rng) == 0 else { continue }
      let complete = sessions.filter { events in written[events[0].session] == events.count }.map { $0[0].session }
      if let session = complete.filter({ !forgetting.values.contains($0) }).randomElement(using: &rng) {
        forgetting[index] = session
      }
    }
    return Arrival(writes: writes, pullsAfter: pulls, forgettingAfter: forgetting)
  }

  /// One pull of `table`: the rows after `after`, up to the cursor the store gives now, and
  /// that cursor, as the store gives it (a cursor that went back would hand out nothing here,
  /// and the caller's check that it never does would say so).
  static func pull(_ store: SessionStore, _ table: ExportTable, after: Int64?) throws -> (
    rows: [[ExportValue]], cursor: Int64
  ) {
    let cursor = try store.exportCursor()
    var rows: [[ExportValue]] = []
    try store.export(table, filter: ExportFilter(after: after, through: cursor)) { rows.append($0.values) }
    return (rows, cursor)
  }

  /// The value of `column` in a row of `table`.
  static func value(_ row: [ExportValue], _ column: String, of table: ExportTable) -> ExportValue {
    table.columns.firstIndex(of: column).map { row[$0] } ?? .null
  }

  @Test func resumedPullsHandOutWhatOneExportHoldsAndNoRowTwice() async throws {
    let arrivals = Generator<Arrival, Shrink.None<Arrival>> { rng in Self.arrival(using: &rng) }
    await checkProperty(count: 60, input: arrivals) { arrival in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("pulls.sqlite"))
      var pulled: [ExportTable: [[ExportValue]]] = [:]
      var cursors: [ExportTable: Int64] = [:]
      func pullAll() throws {
        for table in ExportTable.allCases {
          let (rows, cursor) = try Self.pull(store, table, after: cursors[table])
          #expect(cursor >= cursors[table] ?? .min, "a cursor never goes back")
          pulled[table, default: []] += rows
          cursors[table] = cursor
        }
      }
      let start = Timestamp(millisecondsSince1970: 1_795_000_000_000)
      for (index, write) in arrival.writes.enumerated() {
        try store.append(contentsOf: write)
        if let forgotten = arrival.forgettingAfter[index] { _ = try store.forget([forgotten], at: start) }
        if arrival.pullsAfter.contains(index) { try pullAll() }
      }
      try pullAll()
      // One pull more hands out nothing: everything was handed out.
      for table in ExportTable.allCases {
        #expect(try Self.pull(store, table, after: cursors[table]).rows.isEmpty, "\(table): nothing is left")
      }
      for table in ExportTable.allCases {
        var whole: [[ExportValue]] = []
        try store.export(table) { whole.append($0.values) }
        // What was handed out of a session before it was forgotten, the warehouse deletes.
        let forgotten = Set(arrival.forgettingAfter.values.map { ExportValue.text($0.rawValue) })
        let handed = pulled[table] ?? []
        #expect(Set(handed).count == handed.count, "\(table): no row is handed out twice")
        let got = handed.filter { !forgotten.contains(Self.value($0, "session", of: table)) }
        switch table {
        case .events, .transitions:
          // Rows that never change: each is handed out once, when it arrives.
          #expect(got.count == whole.count && Set(got) == Set(whole), "\(table): the pulls hold the export's rows")
        case .screenViews, .sessions:
          // A row changes while later events arrive (a view still on screen, a session going
          // on): it comes again, and its last form is the export's.
          let key = table == .sessions ? "session" : "view_id"
          var last: [ExportValue: [ExportValue]] = [:]
          for row in got { last[Self.value(row, key, of: table)] = row }
          #expect(last.count == whole.count, "\(table): every row of the export was handed out")
          for row in whole {
            #expect(last[Self.value(row, key, of: table)] == row, "\(table): a row's last form is the export's")
          }
        }
      }
    }
  }

  /// A session dated days before what a pull handed out, uploaded after it, is in the next
  /// pull: the cursor counts arrivals, not the devices' clocks.
  @Test func aSessionUploadedLateIsInTheNextPull() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("late.sqlite"))
    let today = Timestamp(millisecondsSince1970: 1_795_000_000_000)
    try store.append(AnyEvent(session: sessionID("today"), at: today, operation: .start(.stack(stack("R+home")))))
    let first = try Self.pull(store, .screenViews, after: nil)
    #expect(first.rows.map { Self.value($0, "session", of: .screenViews) } == [.text("today")])
    let twoDaysBefore = Timestamp(millisecondsSince1970: today.millisecondsSince1970 - 2 * 86_400_000)
    try store.append(
      contentsOf: [
        AnyEvent(session: sessionID("late"), at: twoDaysBefore, operation: .start(.stack(stack("R+home")))),
        AnyEvent(
          session: sessionID("late"), at: Timestamp(millisecondsSince1970: twoDaysBefore.millisecondsSince1970 + 5_000),
          operation: .push("cart")),
      ])
    let next = try Self.pull(store, .screenViews, after: first.cursor)
    #expect(next.cursor > first.cursor)
    #expect(
      next.rows.map { Self.value($0, "screen", of: .screenViews) } == [.text("home"), .text("cart")],
      "the late session's views, and only them")
    #expect(try Self.pull(store, .events, after: first.cursor).rows.count == 2)
    #expect(try Self.pull(store, .screenViews, after: next.cursor).rows.isEmpty)
  }

  /// The session that holds the highest number, forgotten: the cursor does not go back, and the
  /// next session is received under a number after it, so a pull resumed from a cursor handed
  /// out before the forgetting still gets it. Also in a store reopened in between, and with
  /// sessions forgotten one after another.
  @Test func forgettingTheNewestSessionNeverHandsItsNumberOutAgain() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("forget.sqlite")
    let start = Timestamp(millisecondsSince1970: 1_795_000_000_000)
    var store = try SessionStore(path: path)
    for (index, name) in ["a", "b", "c"].enumerated() {
      try store.append(
        AnyEvent(
          session: sessionID(name), at: Timestamp(millisecondsSince1970: start.millisecondsSince1970 + Int64(index)),
          operation: .start(.stack(stack("R+home")))))
    }
    let before = try Self.pull(store, .events, after: nil)
    #expect(before.rows.count == 3)
    _ = try store.forget([sessionID("c")], at: start)
    store = try SessionStore(path: path)
    #expect(try store.exportCursor() == before.cursor, "the cursor stays where the forgotten session left it")
    _ = try store.forget([sessionID("b")], at: start)
    #expect(try store.exportCursor() == before.cursor)
    try store.append(AnyEvent(session: sessionID("d"), at: start, operation: .start(.stack(stack("R+home")))))
    let after = try Self.pull(store, .events, after: before.cursor)
    #expect(after.cursor > before.cursor)
    #expect(after.rows.map { Self.value($0, "session", of: .events) } == [.text("d")], "the new session is pulled")
  }

  /// A writer of schema 18 (or older) still running when a newer build migrates its store: its
  /// statements name the counter's table by its old name, so its next write fails, where it
  /// would have moved journeys without numbering them (or, at 17, taken numbers from the counter
  /// alone and handed them out twice).
  @Test func aWriterOfAnOlderSchemaStillRunningHasItsWritesRefused() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("older.sqlite")
    try SessionStore(path: path).append(
      AnyEvent(
        session: sessionID("a"), at: Timestamp(millisecondsSince1970: 1_795_000_000_000),
        operation: .start(.stack(stack("R+home")))))
    // Back to schema 18, as that build left it.
    let older = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try older.execute(
      """
      ALTER TABLE sessions DROP COLUMN journey_received;
      ALTER TABLE receipt_counter RENAME TO received_order;
      DELETE FROM schema_migrations WHERE version >= 19;
      PRAGMA user_version = 18;
      """)
    // Schema 18's number, prepared before the migration, as a running writer holds it.
    let number = try older.statement(
      "SELECT max((SELECT last FROM received_order), (SELECT coalesce(max(received), 1) FROM sessions))")
    #expect(try number.step())
    number.reset()
    let store = try SessionStore(path: path)
    #expect(try store.schemaVersion() == 19)
    #expect(throws: SQLiteError.self, "the older writer's statement no longer runs") { try number.step() }
    let before = try store.exportCursor()
    try store.append(
      AnyEvent(
        session: sessionID("b"), at: Timestamp(millisecondsSince1970: 1_795_000_000_000),
        operation: .start(.stack(stack("R+home")))))
    #expect(try store.exportCursor() == before + 1, "this build numbers on")
  }

  /// A store whose receipt counter's row is gone (a hand edit) is damaged: an append and an
  /// export's cursor say so, where a number read from nothing would have been 0.
  @Test func aStoreWithoutItsReceiptCounterIsDamaged() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("counter.sqlite")
    let start = Timestamp(millisecondsSince1970: 1_795_000_000_000)
    try SessionStore(path: path).append(
      AnyEvent(session: sessionID("a"), at: start, operation: .start(.stack(stack("R+home")))))
    try SQLiteConnection(path: path, mode: .readWrite(create: false)).execute("DELETE FROM receipt_counter")
    let store = try SessionStore(path: path)
    func isDamaged(_ error: any Error) -> Bool {
      guard case .damaged? = error as? StoreError else { return false }
      return true
    }
    #expect(
      performing: {
        try store.append(AnyEvent(session: sessionID("b"), at: start, operation: .start(.stack(stack("R+home")))))
      }, throws: isDamaged)
    #expect(performing: { try store.exportCursor() }, throws: isDamaged)
  }
}
