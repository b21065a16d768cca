import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import PostgresNIO
import Synchronization
import Testing

@testable import NavFleet

/// The months' partitions of a fleet on PostgreSQL: made beside uploads without holding them
/// up, and dropped by `prune` once a past month holds nothing, without ever waiting in a cycle
/// with an upload (which the database would break by failing one of the two).
@Suite(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
struct PostgresPartitionTests {
  /// A past month that no other test of this run uses and that has no partitions yet (a
  /// month another test's sessions keep would never be dropped).
  static func pastMonth() throws -> Int {
    while true {
      let month = Int.random(in: 1990...2024) * 100 + Int.random(in: 1...12)
      guard handedOut.withLock({ $0.insert(month).inserted }) else { continue }
      if try TestPostgres.psql("SELECT count(*) FROM partitions WHERE month = \(month)").hasPrefix("0") {
        return month
      }
    }
  }
  private static let handedOut = Mutex<Set<Int>>([])

  /// A sweep that keeps trying for as long as a busy run may hold the tables.
  static let patientSweep = PartitionSweep(patience: .seconds(180))

  /// Whether the partitions of `month` exist, and the store still lists them.
  static func partitionsExist(_ month: Int) throws -> (tables: Int, listed: Int) {
    let tables = try TestPostgres.psql(
      "SELECT count(*) FROM pg_class WHERE relname IN ('events_\(month)', 'snapshots_\(month)')")
    let listed = try TestPostgres.psql("SELECT count(*) FROM partitions WHERE month = \(month)")
    return (
      Int(tables.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
      Int(listed.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    )
  }

  /// `count` one-event sessions of `app` stored in `month`, its partitions made in the same
  /// transaction (so no other test's pruning finds them empty in between).
  static func storeSessions(_ count: Int, of app: AppName, in month: Int) throws {
    let hash = "decode(repeat('ab', 32), 'hex')"
    _ = try TestPostgres.psql(
      """
      SELECT navstore_month_partition(\(month));
      INSERT INTO sessions (app, id, month, event_count, first_at, last_at, head_hash)
        SELECT '\(app.rawValue)', 'm-' || i, \(month), 1, 1000, 1000, \(hash) FROM generate_series(1, \(count)) AS i;
      INSERT INTO events (app, session_id, month, seq, at, origin, op, hash)
        SELECT '\(app.rawValue)', 'm-' || i, \(month), 1, 1000, 'app', '{}', \(hash) FROM generate_series(1, \(count)) AS i;
      """)
  }

  /// A past month whose sessions a pruning forgets, in one transaction or in several, loses its
  /// partitions; the cases run at once, beside the other tests' prunings and uploads.
  @Test(arguments: [2, 3, 1_000])
  func anOldMonthLeftEmptyLosesItsPartitions(batch: Int) async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    let month = try Self.pastMonth()
    try Self.storeSessions(6, of: app, in: month)
    #expect(try Self.partitionsExist(month) == (2, 1))

    let (tombstones, partitions) = try await fleet.prune(
      app: app, before: Timestamp(millisecondsSince1970: 2_000), batch: batch, sweep: Self.patientSweep)

    #expect(tombstones.count == 6)
    // Dropped by this pruning, or by another test's that found it empty first.
    #expect(partitions.dropped != nil, "\(partitions)")
    #expect(try Self.partitionsExist(month) == (0, 0))
  }

  /// A month that still holds a session of another app keeps its partitions, until that app's
  /// pruning forgets it.
  @Test func aMonthWithASessionLeftKeepsItsPartitions() async throws {
    let postgres = try await PostgresTestFleet()
    let other = try await PostgresTestFleet()
    let month = try Self.pastMonth()
    try Self.storeSessions(2, of: postgres.app, in: month)
    try Self.storeSessions(1, of: other.app, in: month)

    let tombstones = try await postgres.fleet.prune(
      app: postgres.app, before: Timestamp(millisecondsSince1970: 2_000), sweep: Self.patientSweep
    ).tombstones

    #expect(tombstones.count == 2)
    #expect(try Self.partitionsExist(month) == (2, 1))
    let kept = try TestPostgres.psql(
      "SELECT count(*) FROM events WHERE app = '\(other.app.rawValue)' AND month = \(month)")
    #expect(kept.hasPrefix("1"))

    // The other app's pruning forgets the month's last session, and drops its partitions.
    let last = try await other.fleet.prune(
      app: other.app, before: Timestamp(millisecondsSince1970: 2_000), sweep: Self.patientSweep)
    #expect(last.tombstones.count == 1)
    #expect(try Self.partitionsExist(month) == (0, 0))
  }

  /// A pruning whose sweep finds the tables busy for all its patience (a reader holds `events`
  /// the whole time) forgets its sessions all the same, and says which emptied months keep
  /// their partitions; the next pruning, with the tables free, drops them.
  @Test func aMonthWhoseTablesStayBusyIsSaidToKeepItsPartitions() async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    let month = try Self.pastMonth()
    try Self.storeSessions(3, of: app, in: month)
    let logger = Logger(label: "test")
    let impatient = PartitionSweep(lockWait: .milliseconds(50), patience: .milliseconds(600))
    let (tombstones, partitions) = try await fleet.client.withTransaction(logger: logger) { connection in
      // Held until the pruning has answered: no sweep, this one's or another test's, drops a
      // partition meanwhile.
      try await connection.run("SELECT count(*) FROM events WHERE month = \(Int32(month))", logger: logger)
      return try await fleet.prune(app: app, before: Timestamp(millisecondsSince1970: 2_000), sweep: impatient)
    }
    #expect(tombstones.count == 3)
    guard case .keptWhileBusy(let kept) = partitions else {
      Issue.record("the sweep did not say the partitions stay: \(partitions)")
      return
    }
    #expect(kept.contains(month))
    #expect(try Self.partitionsExist(month) == (2, 1))

    // With the reader gone, they go (by this fleet's tries, or another test's pruning).
    #expect(try await Self.dropPartitions(of: month, by: fleet) != nil)
    #expect(try Self.partitionsExist(month) == (0, 0))
  }

  /// An upload that has read a session's state (`snapshots`) and reads its events next, while
  /// a pruning drops an emptied month's partitions: the drop holds `events` and waits for
  /// `snapshots`, the upload waits for `events`. The drop gives way within its wait, so the
  /// upload's read is answered (no deadlock failing it), and the partitions go on a later try.
  @Test func droppingPartitionsGivesWayToAnUploadMidRead() async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    let month = try Self.pastMonth()
    try Self.storeSessions(2, of: app, in: month)
    _ = try await fleet.forget([sessionID("m-1"), sessionID("m-2")], app: app)
    let current = Int32(PostgresFleet.month(of: .now))
    let logger = Logger(label: "test")
    let wait = Duration.milliseconds(300)
    let (seen, tries) = try await fleet.client.withTransaction(logger: logger) { connection in
      try await connection.run("SELECT count(*) FROM snapshots WHERE month = \(current)", logger: logger)
      // Tries of the drop, as `prune` makes them, until one is seen holding `events` and
      // waiting for `snapshots` (a try may instead wait out another test's upload).
      var seen = false
      var tries: [Task<[Int]?, any Error>] = []
      while !seen, tries.count < 20 {
        let ended = Mutex(false)
        tries.append(
          Task {
            defer { ended.withLock { $0 = true } }
            return try await fleet.dropPartitions(of: [month], waitingAtMost: wait)
          })
        while !seen, !ended.withLock({ $0 }) {
          seen = try await Self.someoneWaitsForSnapshots(fleet)
          if !seen { try await Task.sleep(for: .milliseconds(5)) }
        }
      }
      try await connection.run("SELECT count(*) FROM events WHERE month = \(current)", logger: logger)
      return (seen, tries)
    }
    #expect(seen, "no drop was seen waiting for snapshots with events held")
    // No try failed either (a drop that does not give way fails on the deadlock, or the read).
    for attempt in tries { _ = try await attempt.value }
    // Once the upload is done, a try drops them (or another test's pruning has).
    #expect(try await Self.dropPartitions(of: month, by: fleet) != nil)
    #expect(try Self.partitionsExist(month) == (0, 0))
  }

  /// Whether a transaction waits to hold `snapshots` exclusively.
  static func someoneWaitsForSnapshots(_ fleet: PostgresFleet) async throws -> Bool {
    let rows = try await fleet.client.query(
      """
      SELECT count(*) FROM pg_locks
        WHERE NOT granted AND mode = 'AccessExclusiveLock' AND relation = 'snapshots'::regclass
      """, logger: fleet.logger)
    var waiting: Int64 = 0
    for try await count in rows.decode(Int64.self) { waiting = count }
    return waiting > 0
  }

  /// A month's partitions are made while an upload holds both tables (it has read and written
  /// rows of the current month): making them waits for no one.
  @Test func aMonthsPartitionsAreMadeBesideAnOpenUpload() async throws {
    let postgres = try await PostgresTestFleet()
    let (fleet, app) = (postgres.fleet, postgres.app)
    _ = try await fleet.ingest(
      [ArraySlice(try WireFormat.canonicalBytes(event("open", .start(.stack(stack("R+home"))), seq: 1)))], app: app)
    // A month far ahead, that no test prunes.
    let month = Int.random(in: 3000...9000) * 100 + Int.random(in: 1...12)
    let current = Int32(PostgresFleet.month(of: .now))
    let logger = Logger(label: "test")
    try await fleet.client.withTransaction(logger: logger) { connection in
      try await connection.run("SELECT count(*) FROM snapshots WHERE month = \(current)", logger: logger)
      try await connection.run("SELECT count(*) FROM events WHERE month = \(current)", logger: logger)
      // With the tables held exclusively to make the partitions, this waited for the commit
      // below, which waits for it.
      try await TimeLimit.answer(within: .seconds(60)) { try await fleet.ensurePartitions(of: month) }
    }
    #expect(try Self.partitionsExist(month) == (2, 1))
    // Its rows go there, checked as the parent's are, and append-only.
    let row = { (seq: Int) in
      """
      INSERT INTO events (app, session_id, month, seq, at, origin, op, hash)
        VALUES ('\(app.rawValue)', 'x', \(month), \(seq), 1, 'app', '{}', decode(repeat('ab', 32), 'hex'))
      """
    }
    _ = try TestPostgres.psql(row(1))
    #expect(try TestPostgres.psql("SELECT count(*) FROM events_\(month)").hasPrefix("1"))
    #expect(throws: (any Error).self) { try TestPostgres.psql(row(0)) }
    #expect(throws: (any Error).self) { try TestPostgres.psql("UPDATE events_\(month) SET at = 2") }
    #expect(try await Self.dropPartitions(of: month, by: fleet) == [month])
  }

  /// Drops the partitions of `month` with the tries `prune` makes, giving way to the other
  /// tests' uploads (a plain `DROP` beside them waited in a cycle with them), until one is not
  /// in the way: the months it dropped, or nil when every try was.
  static func dropPartitions(of month: Int, by fleet: PostgresFleet) async throws -> [Int]? {
    for _ in 0..<100 {
      if let dropped = try await fleet.dropPartitions(of: [month], waitingAtMost: .milliseconds(300)) { return dropped }
      try await Task.sleep(for: .milliseconds(100))
    }
    return nil
  }
}

extension PartitionSweepResult {
  /// The months dropped, or nil when the sweep kept its months or failed.
  var dropped: [Int]? {
    if case .dropped(let months) = self { months } else { nil }
  }
}
