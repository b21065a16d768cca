#if Collector
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO

extension PostgresFleet {
  /// Forgets `sessions` of `app` in one transaction, as `SessionStore.forget` does: each one's
  /// tombstone written (its last seq and chain value, so audits tell the erasure from
  /// tampering), then its snapshots, events and row deleted. All or nothing: an unknown or
  /// already forgotten session refuses the whole call.
  package func forget(_ sessions: [SessionID], app: AppName, at time: Timestamp = .now) async throws(FleetError)
    -> [Tombstone]
  {
    try await forgetting(sessions, app: app, at: time, timeout: nil) { connection, sessions in
      var rows: [(SessionID, SessionRecord, Int)] = []
      for session in sessions {
        let forgotten = try await connection.query(
          """
          SELECT forgotten_at FROM tombstones WHERE app = \(app.rawValue) AND session_id = \(session.rawValue)
          """, logger: self.logger)
        for try await at in forgotten.decode(Int64.self) {
          throw HistoryError.forgottenSession(session, at: Timestamp(millisecondsSince1970: at))
        }
        let row = try await self.sessionRow(session, app: app, on: connection)
        guard row.record.eventCount > 0 else { throw HistoryError.unknownSession(session) }
        rows.append((session, row.record, row.month))
      }
      return rows
    }
  }

  /// How many sessions one transaction of `prune` forgets at most. Each is locked until its
  /// transaction ends, and those locks live in the database's lock table, which every
  /// connection shares (`max_locks_per_transaction` times about the number of connections).
  package static let sessionsPerPruningTransaction = 1_000

  /// Forgets every session of `app` whose last event is before `cutoff` (a retention limit), in
  /// transactions of at most `batch` sessions, oldest month first, each reported to `committed`
  /// (the number forgotten so far) once it is: a failure keeps what the transactions before it
  /// forgot, and the same call again goes on from there. Then the partitions of every month
  /// left with no rows that ended over a day ago are dropped (`dropEmptyPartitions`), or left
  /// to the next pruning when the drop cannot be done. Returns the tombstones written, in
  /// session id order, and what became of the emptied months' partitions.
  package func prune(
    app: AppName, before cutoff: Timestamp, at time: Timestamp = .now,
    batch: Int = PostgresFleet.sessionsPerPruningTransaction, sweep: PartitionSweep = PartitionSweep(),
    committed: (Int) -> Void = { _ in }
  ) async throws(FleetError) -> (tombstones: [Tombstone], partitions: PartitionSweepResult) {
    var tombstones: [Tombstone] = []
    let batch = max(1, batch)
    // Each round goes on after the last one's final candidate, in (month, id) order, so that a
    // session is a candidate once and the pruning ends however uploads move.
    var after = (month: Int32(0), id: "")
    while true {
      let (position, batchSize) = (after, Int64(batch))
      let found = try await database {
        let rows = try await self.client.query(
          """
          SELECT id, month FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 AND last_at < \(cutoff.millisecondsSince1970)
              AND (month, id) > (\(position.month), \(position.id))
            ORDER BY month, id LIMIT \(batchSize)
          """, logger: self.logger)
        var found: [(session: SessionID, month: Int32)] = []
        for try await (id, month) in rows.decode((String, Int32).self) {
          found.append((try SessionRecord.sessionID(id), month))
        }
        return found
      }
      guard let last = found.last else { break }
      let candidates = found.map(\.session)
      let forgotten = try await forgetting(candidates, app: app, at: time, timeout: .seconds(600)) {
        connection, candidates in
        // Read again under the sessions' locks: one that an upload extended since is kept.
        let rows = try await connection.query(
          """
          SELECT \(unescaped: PostgresSessionRow.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND id = ANY(\(candidates.map(\.rawValue)))
              AND event_count > 0 AND last_at < \(cutoff.millisecondsSince1970)
            ORDER BY id
          """, logger: self.logger)
        var chosen: [(SessionID, SessionRecord, Int)] = []
        try await readToTheEnd(rows.decode(PostgresSessionRow.Columns.self)) { columns in
          let row = PostgresSessionRow(columns)
          chosen.append((try SessionRecord.sessionID(row.record.id), row.record, row.month))
        }
        return chosen
      }
      tombstones += forgotten
      if !forgotten.isEmpty { committed(tombstones.count) }
      after = (last.month, last.session.rawValue)
      if found.count < batch { break }
    }
    // Then the months left empty, up to the one a day ago (a month just ended may still gain a
    // session from a collector whose clock is behind). What was forgotten stays forgotten if
    // the drop fails: the next pruning drops them.
    let dayAgo = Timestamp(millisecondsSince1970: Timestamp.now.millisecondsSince1970 - 86_400_000)
    let partitions: PartitionSweepResult
    do {
      partitions = try await dropEmptyPartitions(before: Self.month(of: dayAgo), sweep)
    } catch {
      logger.warning(
        "the partitions of emptied months stay until a later pruning", metadata: ["cause": "\(error)"])
      partitions = .failed(error)
    }
    // As a store file lists them, by the ids' bytes (the database's "C" collation).
    let sorted = tombstones.sorted { $0.session.rawValue.utf8.lexicographicallyPrecedes($1.session.rawValue.utf8) }
    return (sorted, partitions)
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
  /// to forget among them, and each is tombstoned and its rows deleted (its session row, its
  /// events, its snapshots). Returns the tombstones written.
  private func forgetting(
    _ candidates: [SessionID], app: AppName, at time: Timestamp, timeout: Duration?,
    choose: @escaping @Sendable (PostgresConnection, [SessionID]) async throws -> [(SessionID, SessionRecord, Int)]
  ) async throws(FleetError) -> [Tombstone] {
    guard !candidates.isEmpty else { return [] }
    let logger = logger
    return try await transaction(timeout: timeout) { connection in
      let keys = candidates.map { Self.lockKey(app: app, session: $0) }.sorted()
      try await connection.run("SELECT pg_advisory_xact_lock(k) FROM unnest(\(keys)::bigint[]) AS k", logger: logger)
      let chosen = try await choose(connection, candidates)
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
      for month in Set(chosen.map(\.2)).sorted() {
        let inMonth = chosen.filter { $0.2 == month }.map(\.0.rawValue)
        for table in ["events", "snapshots"] {
          try await connection.run(
            """
            DELETE FROM \(unescaped: table)
              WHERE app = \(app.rawValue) AND month = \(Int32(month)) AND session_id = ANY(\(inMonth))
            """, logger: logger)
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
#endif
