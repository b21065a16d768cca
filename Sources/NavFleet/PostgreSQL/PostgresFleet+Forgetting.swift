import NavCore
@_spi(Internals) import NavPersistence
import PostgresNIO

extension PostgresFleet {
  /// Forgets `sessions` of `app` in one transaction, as `SessionStore.forget` does: each one's
  /// tombstone written (its last seq and chain value, so audits tell the erasure from
  /// tampering), then its snapshots, events and row deleted. All or nothing: an unknown or
  /// already forgotten session refuses the whole call.
  package func forget(_ sessions: [SessionID], app: AppName, at time: Timestamp = .now) async throws(FleetError)
    -> [Tombstone]
  {
    try await forgetting(app: app, at: time, timeout: nil) { _ in
      (sessions, nil)
    } choose: { connection, sessions in
      var rows: [(SessionID, SessionRecord, Int)] = []
      for session in sessions {
        let forgotten = try await connection.query(
          """
          SELECT forgotten_at FROM tombstones WHERE app = \(app.rawValue) AND session_id = \(session.rawValue)
          """, logger: self.logger)
        for try await at in forgotten.decode(Int64.self) {
          throw StoreError.forgottenSession(session, at: Timestamp(millisecondsSince1970: at))
        }
        let row = try await self.sessionRow(session, app: app, on: connection)
        guard row.record.eventCount > 0 else { throw StoreError.unknownSession(session) }
        rows.append((session, row.record, row.month))
      }
      return rows
    }
  }

  /// How many sessions one transaction of `prune` forgets at most. Each is locked until its
  /// transaction ends, and those locks live in the database's lock table, which every
  /// connection shares (`max_locks_per_transaction` times about the number of connections).
  package static let sessionsPerPruningTransaction = 1_000

  /// The advisory lock under which partitions are made (`navstore_month_partition`, in the
  /// schema) and dropped.
  static let partitionsLockKey: Int64 = 7_356_152_906_231_844_411

  /// Forgets every session of `app` whose last event is before `cutoff` (a retention limit), in
  /// transactions of at most `batch` sessions, oldest month first, each reported to `committed`
  /// (the number forgotten so far) once it is: a failure keeps what the transactions before it
  /// forgot, and the same call again goes on from there. A month's last transaction drops its
  /// partitions whole when no session of any app is left in it (the transactions before it
  /// delete their sessions' rows). Returns the tombstones written, in session id order.
  package func prune(
    app: AppName, before cutoff: Timestamp, at time: Timestamp = .now,
    batch: Int = PostgresFleet.sessionsPerPruningTransaction, committed: (Int) -> Void = { _ in }
  ) async throws(FleetError) -> [Tombstone] {
    var tombstones: [Tombstone] = []
    let batch = max(1, batch)
    // Where the last round's candidates ended, in (month, id) order, and whether one more
    // followed them: each round goes on after it, so a session is a candidate once, and the
    // pruning ends however uploads move.
    let cursor = Protected(PruningCursor())
    while true {
      let forgotten = try await forgetting(app: app, at: time, timeout: .seconds(600)) { connection in
        let after = cursor.withLock { $0 }
        // One more than the round takes, to know whether the next round goes on in its last
        // month (which then keeps its partitions for now).
        let rows = try await connection.query(
          """
          SELECT id, month FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 AND last_at < \(cutoff.millisecondsSince1970)
              AND (month, id) > (\(after.month), \(after.id))
            ORDER BY month, id LIMIT \(Int64(batch) + 1)
          """, logger: self.logger)
        var found: [(id: String, month: Int32)] = []
        for try await (id, month) in rows.decode((String, Int32).self) { found.append((id, month)) }
        let taken = found.prefix(batch)
        let named = try taken.map { try SessionRecord.sessionID($0.id) }
        let next = found.count > batch ? found[batch] : nil
        let last = taken.last
        cursor.withLock {
          $0 = PruningCursor(month: last?.month ?? after.month, id: last?.id ?? after.id, more: next != nil)
        }
        let unfinished = next.flatMap { next in last.flatMap { next.month == $0.month ? Int($0.month) : nil } }
        return (named, unfinished)
      } choose: { connection, candidates in
        // Read again under the sessions' locks: one that an upload extended since is kept.
        let found = try await connection.query(
          """
          SELECT \(unescaped: SessionRowColumns.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND id = ANY(\(candidates.map(\.rawValue)))
              AND event_count > 0 AND last_at < \(cutoff.millisecondsSince1970)
            ORDER BY id
          """, logger: self.logger)
        var rows: [(SessionID, SessionRecord, Int)] = []
        try await readToTheEnd(found.decode(SessionRowColumns.Columns.self)) { columns in
          let row = SessionRowColumns(columns)
          rows.append((try SessionRecord.sessionID(row.record.id), row.record, row.month))
        }
        return rows
      }
      tombstones += forgotten
      if !forgotten.isEmpty { committed(tombstones.count) }
      if !cursor.withLock(\.more) {
        // As a store file lists them, by the ids' bytes (the database's "C" collation).
        return tombstones.sorted { $0.session.rawValue.utf8.lexicographicallyPrecedes($1.session.rawValue.utf8) }
      }
    }
  }

  /// The sessions of `app` whose last event is before `cutoff`, in id order: what `prune` would
  /// forget.
  package func sessions(app: AppName, lastBefore cutoff: Timestamp) async throws(FleetError) -> [SessionID] {
    try await database {
      var sessions: [SessionID] = []
      let rows = try await self.client.query(
        """
        SELECT id FROM sessions
          WHERE app = \(app.rawValue) AND event_count > 0 AND last_at < \(cutoff.millisecondsSince1970) ORDER BY id
        """, logger: self.logger)
      for try await id in rows.decode(String.self) { sessions.append(try SessionRecord.sessionID(id)) }
      return sessions
    }
  }

  /// One forgetting transaction: the `candidates`' locks are taken first, in the order uploads
  /// take them (so neither can wait on the other in a cycle), then `choose` reads the sessions
  /// to forget among them, and each is tombstoned and deleted, or its month's partitions
  /// dropped when nothing else is left in them (but for the month `candidates` says may have
  /// more to come). Returns the tombstones written.
  private func forgetting(
    app: AppName, at time: Timestamp, timeout: Duration?,
    candidates: @escaping @Sendable (PostgresConnection) async throws -> (sessions: [SessionID], unfinishedMonth: Int?),
    choose: @escaping @Sendable (PostgresConnection, [SessionID]) async throws -> [(SessionID, SessionRecord, Int)]
  ) async throws(FleetError) -> [Tombstone] {
    let logger = logger
    return try await transaction(timeout: timeout) { connection in
      let (named, unfinishedMonth) = try await candidates(connection)
      guard !named.isEmpty else { return [] }
      let keys = named.map { Self.lockKey(app: app, session: $0) }.sorted()
      try await connection.run("SELECT pg_advisory_xact_lock(k) FROM unnest(\(keys)::bigint[]) AS k", logger: logger)
      let chosen = try await choose(connection, named)
      guard !chosen.isEmpty else { return [] }
      let tombstones = chosen.map { session, record, _ in
        Tombstone(
          session: session, forgottenAt: time, lastSeq: record.eventCount,
          headHash: record.headHash ?? HashChain.genesis)
      }
      try await connection.run(
        """
        INSERT INTO tombstones (app, session_id, forgotten_at, last_seq, head_hash)
          SELECT \(app.rawValue), s, \(time.millisecondsSince1970), q, h
            FROM unnest(\(tombstones.map(\.session.rawValue))::text[], \(tombstones.map { Int64($0.lastSeq) })::bigint[],
              \(tombstones.map { ByteBuffer(bytes: $0.headHash) })::bytea[]) AS t (s, q, h)
        """, logger: logger)
      let ids = chosen.map(\.0.rawValue)
      try await connection.run(
        "DELETE FROM sessions WHERE app = \(app.rawValue) AND id = ANY(\(ids))", logger: logger)
      // Nothing of any app is left in a month before this one: its partitions go whole. The
      // current month's stay, even empty: new sessions go there, and every collector remembers
      // the partitions it has made. So does a month the next round goes on in.
      let months = Set(chosen.map(\.2)).sorted()
      var emptied: Set<Int> = []
      for month in months where month < Self.month(of: .now) && month != unfinishedMonth {
        let remaining = try await connection.query(
          "SELECT NOT EXISTS (SELECT 1 FROM sessions WHERE month = \(Int32(month)))", logger: logger)
        for try await none in remaining.decode(Bool.self) where none { emptied.insert(month) }
      }
      if !emptied.isEmpty {
        // Before this transaction touches `events`: two that drop partitions would otherwise
        // each hold its rows' lock and wait for the whole table, deadlocked.
        try await connection.run("SELECT pg_advisory_xact_lock(\(Self.partitionsLockKey))", logger: logger)
      }
      for month in months {
        if emptied.contains(month) {
          for table in ["events", "snapshots"] {
            try await connection.run(
              PostgresQuery(unsafeSQL: "ALTER TABLE \(table) DETACH PARTITION \(table)_\(month)"), logger: logger)
            try await connection.run(PostgresQuery(unsafeSQL: "DROP TABLE \(table)_\(month)"), logger: logger)
          }
          try await connection.run("DELETE FROM partitions WHERE month = \(Int32(month))", logger: logger)
        } else {
          // Events before snapshots, as uploads and drops take them: in one order, none of
          // them waits on another in a cycle.
          let inMonth = chosen.filter { $0.2 == month }.map(\.0.rawValue)
          for table in ["events", "snapshots"] {
            try await connection.run(
              """
              DELETE FROM \(unescaped: table)
                WHERE app = \(app.rawValue) AND month = \(Int32(month)) AND session_id = ANY(\(inMonth))
              """, logger: logger)
          }
        }
      }
      return tombstones
    }
  }

  /// Every tombstone of `app`, in session id order.
  package func tombstones(app: AppName) async throws(FleetError) -> [Tombstone] {
    try await database {
      var tombstones: [Tombstone] = []
      let rows = try await self.client.query(
        """
        SELECT session_id, forgotten_at, last_seq, head_hash FROM tombstones
          WHERE app = \(app.rawValue) ORDER BY session_id
        """, logger: self.logger)
      for try await (id, at, seq, hash) in rows.decode((String, Int64, Int64, ByteBuffer).self) {
        tombstones.append(
          Tombstone(
            session: try SessionRecord.sessionID(id), forgottenAt: Timestamp(millisecondsSince1970: at),
            lastSeq: Int(seq), headHash: hash.bytes))
      }
      return tombstones
    }
  }
}

/// Where a pruning's last round ended, in (month, id) order, and whether more candidates
/// followed it.
private struct PruningCursor: Sendable {
  var month: Int32 = 0
  var id = ""
  var more = true
}
