#if Collector
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO

/// How `prune` drops the partitions of past months it has emptied: never in the way of uploads
/// for long, and never in a cycle of waits with them.
///
/// Dropping a partition holds `events` and `snapshots` exclusively, and uploads take the two in
/// either order (a rehydration reads `snapshots` first, a resend's stored rows `events` first),
/// so an upload may hold one while it waits for the other: no order of the drop's own avoids a
/// cycle, which the database breaks after its `deadlock_timeout` (one second by default) by
/// failing one of the two, perhaps the upload. So each of the drop's lock waits ends after
/// `lockWait`, and a try that could not take everything lets go of all it took, pauses and
/// tries again, for `patience` in all. An upload caught in a cycle with it waited at most two of
/// those waits (the two tables'), which must stay under the deadlock check: `lockWait` is at
/// most 400 ms. Uploads that arrive during a try queue behind it, a few times `lockWait` at the
/// worst. A drop that runs out of patience leaves the partitions, empty, to the next pruning.
package struct PartitionSweep: Sendable {
  /// How long each of a try's lock waits may last (at most 400 ms).
  package let lockWait: Duration
  /// How long the tries go on before the partitions are left to the next pruning.
  package let patience: Duration

  /// The longest `lockWait`: twice it stays under PostgreSQL's default `deadlock_timeout`.
  package static let longestLockWait: Duration = .milliseconds(400)

  /// A sweep that waits `lockWait` at a time (400 ms at most) for `patience` in all; by
  /// default 200 ms at a time for 30 s.
  package init(lockWait: Duration = .milliseconds(200), patience: Duration = .seconds(30)) {
    self.lockWait = min(lockWait, Self.longestLockWait)
    self.patience = patience
  }
}

/// What a pruning did with the partitions of the past months it found empty, so that the one
/// who pruned hears whether the space came back.
package enum PartitionSweepResult: Hashable, Sendable {
  /// These months' partitions were dropped (none when no past month was empty).
  case dropped([Int])
  /// These months' partitions stay until a later pruning: the tables stayed busy for the
  /// sweep's whole patience, or the sweep was cancelled.
  case keptWhileBusy([Int])
  /// The sweep failed; whatever months it found stay until a later pruning.
  case failed(FleetError)
}

extension PostgresFleet {
  /// The advisory lock under which partitions are made (`navstore_month_partition`, in the
  /// schema) and dropped.
  static let partitionsLockKey: Int64 = 7_356_152_906_231_844_411

  /// Makes sure the partitions of `month` exist (once per process and month). The schema's
  /// function attaches them, so uploads and readers of the tables never wait for it.
  func ensurePartitions(of month: Int) async throws(FleetError) {
    if partitions.withLock({ $0.contains(month) }) { return }
    let logger = logger
    try await transaction { connection in
      try await connection.run("SELECT navstore_month_partition(\(Int32(month)))", logger: logger)
    }
    partitions.withLock { _ = $0.insert(month) }
  }

  /// Drops the partitions of every month before `current` that hold no row (their sessions, of
  /// every app, all forgotten), as `sweep` says; returns the months dropped, or those left when
  /// the tables stayed busy.
  ///
  /// `current` must be a month that began well before now (`prune` passes the month of a day
  /// ago): an upload reads the month it stores a new session in before its transaction, and a
  /// collector's clock may be behind, so a month that has just ended may still gain a session.
  /// Past that, a month's partitions that hold no row stay empty: a session's rows go to the
  /// month it was first stored in, and a new session to the current month. So emptiness is read
  /// before the tables are held, and not again under the lock (reading an emptied partition's
  /// dead rows there would hold every upload back for as long).
  @discardableResult
  package func dropEmptyPartitions(before current: Int, _ sweep: PartitionSweep = PartitionSweep())
    async throws(FleetError) -> PartitionSweepResult
  {
    let months = try await database {
      let rows = try await self.client.query(
        "SELECT month FROM partitions WHERE month < \(Int32(current)) ORDER BY month", logger: self.logger)
      var months: [Int] = []
      for try await month in rows.decode(Int32.self) { months.append(Int(month)) }
      return months
    }
    var empty: [Int] = []
    for month in months where try await partitionsAreEmpty(month) { empty.append(month) }
    guard !empty.isEmpty else { return .dropped([]) }

    let clock = ContinuousClock()
    let giveUp = clock.now.advanced(by: sweep.patience)
    var pause = Duration.milliseconds(100)
    while true {
      if let dropped = try await dropPartitions(of: empty, waitingAtMost: sweep.lockWait) { return .dropped(dropped) }
      guard clock.now.advanced(by: pause) < giveUp else {
        logger.notice(
          "the partitions of emptied months stay until a later pruning: the tables were busy",
          metadata: ["months": "\(empty)", "patience": "\(sweep.patience)"])
        return .keptWhileBusy(empty)
      }
      do {
        try await Task.sleep(for: pause)
      } catch {
        // Cancelled: the months stay for a later pruning.
        return .keptWhileBusy(empty)
      }
      pause = min(pause * 2, .seconds(2))
    }
  }

  /// One try: holds both tables, waiting at most `wait` for them, then detaches and drops the
  /// partitions of those of `months` still listed and forgets them in `partitions`, in one
  /// transaction. Returns the months dropped, or nil when a table stayed busy for `wait`
  /// (nothing was changed).
  func dropPartitions(of months: [Int], waitingAtMost wait: Duration) async throws(FleetError) -> [Int]? {
    let logger = logger
    let milliseconds = max(1, wait.clampedMilliseconds)
    return try await transaction { connection -> [Int]? in
      // The lock partitions are made under first, as `navstore_month_partition` takes it.
      try await connection.run("SELECT pg_advisory_xact_lock(\(Self.partitionsLockKey))", logger: logger)
      try await connection.run(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(milliseconds)"), logger: logger)
      do {
        // Both tables in one statement, then each partition (autovacuum may be cleaning one).
        // Every wait ends after `wait`: uploads take the tables in either order.
        try await connection.run("LOCK TABLE ONLY events, ONLY snapshots IN ACCESS EXCLUSIVE MODE", logger: logger)
        // Another pruning may have dropped some of them since they were found empty.
        let listed = try await connection.query(
          "SELECT month FROM partitions WHERE month = ANY(\(months.map { Int32($0) })) ORDER BY month", logger: logger)
        var dropped: [Int] = []
        for try await month in listed.decode(Int32.self) { dropped.append(Int(month)) }
        for month in dropped {
          for table in ["events", "snapshots"] {
            try await connection.run(
              PostgresQuery(unsafeSQL: "ALTER TABLE \(table) DETACH PARTITION \(table)_\(month)"), logger: logger)
            try await connection.run(PostgresQuery(unsafeSQL: "DROP TABLE \(table)_\(month)"), logger: logger)
          }
        }
        try await connection.run(
          "DELETE FROM partitions WHERE month = ANY(\(dropped.map { Int32($0) }))", logger: logger)
        return dropped
      } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
        // lock_not_available: the transaction has failed, and its COMMIT rolls it back,
        // letting go of everything it held.
        return nil
      }
    }
  }

  /// Whether the partitions of `month` hold no row: false when they are gone (another pruning
  /// dropped them since they were listed).
  private func partitionsAreEmpty(_ month: Int) async throws(FleetError) -> Bool {
    try await database {
      do {
        let rows = try await self.client.query(
          PostgresQuery(
            unsafeSQL:
              "SELECT NOT EXISTS (SELECT 1 FROM events_\(month)) AND NOT EXISTS (SELECT 1 FROM snapshots_\(month))"),
          logger: self.logger)
        var none = false
        for try await value in rows.decode(Bool.self) { none = value }
        return none
      } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {
        return false
      }
    }
  }
}
#endif
