#if Collector
import Logging
@_spi(Internals) import NavArchive
import NavContract
@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory
import NavReport
import PostgresNIO

extension PostgresFleet {
  /// A session's row (`unknownSession` when the app has none of this id).
  func sessionRow(_ session: SessionID, app: AppName, on connection: PostgresConnection) async throws
    -> PostgresSessionRow
  {
    let rows = try await connection.query(
      """
      SELECT \(unescaped: PostgresSessionRow.selectList) FROM sessions
        WHERE app = \(app.rawValue) AND id = \(session.rawValue)
      """, logger: self.logger)
    for try await columns in rows.decode(PostgresSessionRow.Columns.self) { return PostgresSessionRow(columns) }
    throw HistoryError.unknownSession(session)
  }

  /// A session's summary.
  package func summary(of session: SessionID, app: AppName) async throws(FleetError) -> SessionSummary {
    try await database {
      try await self.client.withConnection { connection in
        try await self.sessionRow(session, app: app, on: connection).record.summary()
      }
    }
  }

  /// `session` and the sessions it continues, oldest first, by the store file's rule
  /// (`SessionLineage`): what a bundle holds.
  package func lineage(of session: SessionID, app: AppName) async throws(FleetError) -> [SessionID] {
    try await FleetLineage.walk(from: session) { id throws(FleetError) in try await self.summary(of: id, app: app) }
      .map(\.id)
  }

  /// A session's last seq and chain value.
  package func head(of session: SessionID, app: AppName) async throws(FleetError) -> SessionHead {
    let totals = try await database {
      try await self.client.withConnection { connection in try await self.sessionRow(session, app: app, on: connection)
      }
    }.record.totals
    return SessionHead(seq: totals.count, hash: totals.count > 0 ? HashChain.hex(totals.headHash) : nil)
  }

  /// The heads of `sessions`, in one query: seq 0 and no hash for a session the app does not
  /// hold.
  package func heads(of sessions: [SessionID], app: AppName) async throws(FleetError) -> [SessionID: SessionHead] {
    var heads = Dictionary(sessions.map { ($0, SessionHead.none) }, uniquingKeysWith: { first, _ in first })
    let ids = sessions.map(\.rawValue)
    let found: [(String, Int64, ByteBuffer?)] = try await database {
      let rows = try await self.client.query(
        "SELECT id, event_count, head_hash FROM sessions WHERE app = \(app.rawValue) AND id = ANY(\(ids))",
        logger: self.logger)
      var found: [(String, Int64, ByteBuffer?)] = []
      for try await row in rows.decode((String, Int64, ByteBuffer?).self) { found.append(row) }
      return found
    }
    for (id, count, hash) in found where count > 0 {
      guard let session = try? SessionID(id), let hash else { continue }
      heads[session] = SessionHead(seq: Int(count), hash: HashChain.hex(hash.bytes))
    }
    return heads
  }

  /// A session's events from `from` to `to`, inclusive (a seq past its end is a
  /// `seqBeyondHistory`, as on SQLite).
  package func history(of session: SessionID, app: AppName, from: Int, to: Int) async throws(FleetError)
    -> [AnyEvent]
  {
    try await database {
      try await self.client.withConnection { connection in
        let row = try await self.sessionRow(session, app: app, on: connection)
        var events: [AnyEvent] = []
        try await connection.forEachStoredEvent(
          of: session, app: app, month: row.month, from: max(1, from), to: max(0, min(to, row.record.eventCount)),
          logger: self.logger
        ) { events.append(try $0.decoded()) }
        return events
      }
    }
  }

  /// A session's state after `seq` (default: its last event).
  package func state(of session: SessionID, app: AppName, at seq: Int?) async throws(FleetError) -> SessionState {
    return try await database {
      try await self.client.withConnection { connection in
        let row = try await self.sessionRow(session, app: app, on: connection)
        let count = row.record.eventCount
        let target = seq ?? count
        guard (1...max(1, count)).contains(target), count > 0 else {
          throw HistoryError.seqBeyondHistory(session: session, seq: target, last: count)
        }
        let state = try await Self.rehydrate(
          session, app: app, month: row.month, at: target, on: connection, logger: self.logger)
        return SessionState(session: session, seq: target, state: state)
      }
    }
  }

  /// Checks one session's stored history and row as `verify` does on SQLite (`HistoryAudit`).
  package func verify(_ session: SessionID, app: AppName) async throws(FleetError) -> VerificationResult {
    let audited = try await audit(session, app: app, budget: nil)
    return audited.audit.result(row: audited.row)
  }

  /// `verify` within `budget`: `nil` when it is spent before the verdict, and the budget as it
  /// is left.
  package func verify(_ session: SessionID, app: AppName, within budget: WorkBudget) async throws(FleetError)
    -> (result: VerificationResult?, budget: WorkBudget)
  {
    let audited = try await audit(session, app: app, budget: budget)
    return (audited.audit.budgetedResult(row: audited.row), audited.audit.budget ?? budget)
  }

  /// The session's audit once it wants no more events, and its row when the verdict needs it.
  private func audit(_ session: SessionID, app: AppName, budget: WorkBudget?) async throws(FleetError) -> (
    audit: HistoryAudit, row: SessionRecord?
  ) {
    try await database(timeout: replayTimeout) {
      try await self.client.withConnection { connection in
        let row = try await self.sessionRow(session, app: app, on: connection)
        var audit = HistoryAudit(of: session, budget: budget)
        try await Self.feed(&audit, app: app, month: row.month, on: connection, logger: self.logger)
        return (audit, audit.failure == nil && !audit.ranOut ? row.record : nil)
      }
    }
  }

  /// Hands `audit` the session's events a page at a time, each with the snapshot at its seq,
  /// until it wants no more; then the first snapshot at a seq with no event. Memory holds a
  /// page, whatever the session's length.
  private static func feed(
    _ audit: inout HistoryAudit, app: AppName, month: Int, on connection: PostgresConnection, logger: Logger
  ) async throws {
    let session = audit.session.rawValue
    var from: Int64 = 1
    while audit.wantsMore {
      var rows: [StoredEventRow] = []
      let events = try await connection.query(
        """
        SELECT \(unescaped: PostgresEventRow.selectList) FROM events
          WHERE app = \(app.rawValue) AND session_id = \(session) AND month = \(Int32(month)) AND seq >= \(from)
          ORDER BY seq LIMIT \(Int64(HistoryAudit.pageSize))
        """, logger: logger)
      try await readToTheEnd(events.decode(PostgresEventRow.Columns.self)) { rows.append(try PostgresEventRow.row($0)) }
      guard let first = rows.first, let last = rows.last else { break }
      var stored: [Int: [UInt8]] = [:]
      let snapshots = try await connection.query(
        """
        SELECT seq, state FROM snapshots
          WHERE app = \(app.rawValue) AND session_id = \(session) AND month = \(Int32(month))
            AND seq BETWEEN \(Int64(first.seq)) AND \(Int64(last.seq))
        """, logger: logger)
      for try await (seq, state) in snapshots.decode((Int64, String).self) { stored[Int(seq)] = Array(state.utf8) }
      for row in rows where !audit.take(row, snapshot: stored.removeValue(forKey: row.seq)) { break }
      if rows.count < HistoryAudit.pageSize { break }
      from = Int64(last.seq) + 1
    }
    guard audit.wantsMore else { return }
    let orphans = try await connection.query(
      """
      SELECT min(s.seq) FROM snapshots AS s
        WHERE s.app = \(app.rawValue) AND s.session_id = \(session) AND s.month = \(Int32(month))
          AND NOT EXISTS (
            SELECT 1 FROM events AS e
              WHERE e.app = s.app AND e.session_id = s.session_id AND e.month = s.month AND e.seq = s.seq)
      """, logger: logger)
    for try await orphan in orphans.decode(Int64?.self) { audit.noteOrphanSnapshot(at: orphan.map { Int($0) }) }
  }

  /// The app's sessions in `order` after `after`, at most `limit` of them.
  package func sessionRows(
    app: AppName, order: SessionQuery.Order, after: (lastAt: Timestamp, id: SessionID)?, limit: Int
  ) async throws(FleetError) -> [SessionSummary] {
    return try await database {
      let rows: PostgresRowSequence
      switch (order, after) {
      case (.id, nil):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: PostgresSessionRow.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 ORDER BY id LIMIT \(Int64(limit))
          """, logger: self.logger)
      case (.id, let after?):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: PostgresSessionRow.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 AND id > \(after.id.rawValue) ORDER BY id LIMIT \(Int64(limit))
          """, logger: self.logger)
      case (.lastActivity, nil):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: PostgresSessionRow.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 ORDER BY last_at DESC, id DESC LIMIT \(Int64(limit))
          """, logger: self.logger)
      case (.lastActivity, let after?):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: PostgresSessionRow.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0
              AND (last_at, id) < (\(after.lastAt.millisecondsSince1970), \(after.id.rawValue))
            ORDER BY last_at DESC, id DESC LIMIT \(Int64(limit))
          """, logger: self.logger)
      }
      var summaries: [SessionSummary] = []
      for try await columns in rows.decode(PostgresSessionRow.Columns.self) {
        summaries.append(try PostgresSessionRow(columns).record.summary())
      }
      return summaries
    }
  }
}

extension PostgresFleet {
  /// A session's report, as `navstore report` makes it from a store file: the same window of
  /// events, states, phases and verification (`SessionReport.Builder`).
  package func report(of session: SessionID, app: AppName, focus: Int?, omitsPayloads: Bool)
    async throws(FleetError) -> SessionReport
  {
    let logger = logger
    let verification = try await verify(session, app: app, within: WorkBudget(units: SessionReport.verificationWork))
      .result
    return try await database(timeout: replayTimeout) {
      try await self.client.withConnection { connection in
        let row = try await self.sessionRow(session, app: app, on: connection)
        let summary = try row.record.summary()
        let count = summary.eventCount
        var ends: [AnyEvent] = []
        for seq in [1, count] {
          try await connection.forEachStoredEvent(
            of: session, app: app, month: row.month, from: seq, to: seq, logger: logger
          ) { ends.append(try $0.decoded()) }
        }
        guard let start = ends.first, let end = ends.last else { throw HistoryError.unknownSession(session) }
        var builder = try SessionReport.Builder(
          summary: summary, start: start, end: end, focus: focus, omitsPayloads: omitsPayloads)
        let window = builder.window
        var replay = try await Self.rehydration(
          of: session, app: app, month: row.month, at: window.lowerBound - 1, on: connection, logger: logger)
        try await connection.forEachStoredEvent(
          of: session, app: app, month: row.month, from: window.lowerBound, to: window.upperBound, logger: logger
        ) { stored in
          let event = try replay.take(stored)
          if let state = replay.state { builder.take(event, state: state) }
        }
        return builder.report(verification: verification)
      }
    }
  }
}

extension PostgresFleet {
  /// The cursor an export begun now answers to (its filter's `through`): one less than the
  /// oldest transaction still running on the database (its snapshot's `xmin`). Events carry the
  /// id of the transaction that stored them, and transactions commit in another order than
  /// their ids, so a higher id may be visible while a lower one is still to come; below the
  /// oldest one running, every transaction has committed or failed, and nothing can still
  /// arrive. A transaction left open on the database holds the cursor back until it ends.
  package func exportCursor() async throws(FleetError) -> Int64 {
    let logger = logger
    return try await database {
      let rows = try await self.client.query(
        "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint - 1", logger: logger)
      for try await cursor in rows.decode(Int64.self) { return cursor }
      throw FleetError.database(address: self.address.description, reason: "the database gave no snapshot")
    }
  }

  /// The current snapshot's oldest transaction still running and the next id to be given
  /// (`xmin`, `xmax`), its first query making the snapshot of a REPEATABLE READ transaction.
  func snapshotBounds(on connection: PostgresConnection, logger: Logger) async throws -> (Int64, Int64) {
    let rows = try await connection.query(
      """
      SELECT pg_snapshot_xmin(s)::text::bigint, pg_snapshot_xmax(s)::text::bigint FROM pg_current_snapshot() AS s
      """, logger: logger)
    for try await bounds in rows.decode((Int64, Int64).self) { return bounds }
    throw FleetError.database(address: address.description, reason: "the database gave no snapshot")
  }

  /// One of `app`'s tables as `navstore export` writes it from a store file, byte for byte
  /// (`ExportEncoder`), handed to `sink` a chunk at a time as the rows stream from the
  /// database: memory holds a chunk and one session's state, whatever the app's size. The
  /// rows are read in one read-only transaction, so the export is of one moment. No deadline
  /// applies to a whole export (a slow reader makes it long); each chunk's wait is `sink`'s.
  package func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, app: AppName,
    into sink: ([UInt8]) async throws -> Void
  ) async throws {
    var encoder = try FleetError.ruling(ExportEncoder(table, format: format, filter: filter))
    if let session = filter.session { _ = try await summary(of: session, app: app) }
    let logger = logger
    // The events table filters by time in the query, as SQLite's does; the screen tables replay
    // whole histories (a view may begin before `since`).
    let since = table == .events ? (filter.since?.millisecondsSince1970 ?? Int64.min) : Int64.min
    // An incremental export reads the sessions received after its cursor (their rows' index),
    // whole: a view may begin before the cursor and end after it.
    let after = filter.after ?? Int64.min
    // A filter on what sessions ran on reads each one's context once, with its first row.
    let context =
      filter.selectsByContext
      ? """
      CASE WHEN session_id IS DISTINCT FROM lag(session_id) OVER (ORDER BY session_id, seq)
        THEN coalesce((SELECT s.context FROM sessions s WHERE s.app = events.app AND s.id = events.session_id), '')
      END
      """ : "NULL::text"
    // Each session's row comes with its first event: the sessions table's whole (the count is
    // replayed from the rest), the other tables' journey and its move's number, which the
    // screen views read at a session's first event (the screen tables read whole histories).
    let from = "events LEFT JOIN sessions s ON s.app = events.app AND s.id = events.session_id AND events.seq = 1"
    let columns =
      table == .sessions
      ? PostgresEventRow.selectList(of: "events") + ", " + PostgresSessionRow.selectList(of: "s")
      : PostgresEventRow.selectList(of: "events") + ", s.journey, s.journey_received, " + context
    let events: PostgresQuery =
      if let session = filter.session {
        """
        SELECT \(unescaped: columns) FROM \(unescaped: from)
          WHERE events.app = \(app.rawValue) AND events.session_id = \(session.rawValue) AND events.at >= \(since)
          ORDER BY events.session_id, events.seq
        """
      } else if filter.after != nil {
        """
        SELECT \(unescaped: columns) FROM \(unescaped: from)
          WHERE events.app = \(app.rawValue) AND events.at >= \(since)
            AND events.session_id IN (SELECT id FROM sessions WHERE app = \(app.rawValue) AND received > \(after))
          ORDER BY events.session_id, events.seq
        """
      } else {
        """
        SELECT \(unescaped: columns) FROM \(unescaped: from)
          WHERE events.app = \(app.rawValue) AND events.at >= \(since) ORDER BY events.session_id, events.seq
        """
      }
    do {
      try await client.withConnection { connection in
        try await connection.withTransaction(logger: logger) { connection in
          try await connection.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
          // The export's own snapshot: rows numbered at or past its `xmax` cannot be this
          // database's (a dump restored from another keeps that one's ids) and are handed out
          // rather than cut; and a database behind the cursor the export answers to (a standby
          // still replaying) would leave out rows at or below it, so it answers nothing.
          let (oldestRunning, next) = try await self.snapshotBounds(on: connection, logger: logger)
          if let through = filter.through, oldestRunning - 1 < through {
            throw FleetError.database(
              address: self.address.description,
              reason: "the database read is behind the export's cursor (a standby still replaying?); try again")
          }
          var bounded = filter
          bounded.foreignFrom = next
          encoder = try ExportEncoder(table, format: format, filter: bounded)
          let rows = try await connection.query(events, logger: logger)
          if table == .sessions {
            for try await columns in rows.decode(PostgresEventRow.SessionsExportColumns.self) {
              let (row, session) = try PostgresEventRow.row(columns)
              if let session { try encoder.take(try session.record.summary()) }
              try encoder.take(row)
              if let chunk = encoder.nextChunk() { try await sink(chunk) }
            }
          } else {
            for try await columns in rows.decode(PostgresEventRow.ExportColumns.self) {
              let (row, journey, firstContext) = try PostgresEventRow.row(columns)
              if let firstContext { encoder.beginSession(row.session, context: SessionRecord.context(firstContext)) }
              try encoder.take(row, journey: journey)
              if let chunk = encoder.nextChunk() { try await sink(chunk) }
            }
          }
        }
      }
      let rest = try encoder.finish()
      if !rest.isEmpty { try await sink(rest) }
    } catch let error as HistoryError {
      throw fleetError(error)
    } catch let error as PSQLError {
      throw fleetError(error)
    } catch let error as PostgresTransactionError {
      throw fleetError(error)
    }
  }
}

extension PostgresFleet {
  /// Whether `session` ever showed a screen named `name` on top (as the exports name screens),
  /// replaying its history as `SessionStore.showedScreen` does.
  package func showedScreen(named name: String, in session: SessionID, app: AppName) async throws(FleetError) -> Bool {
    try await showedScreen(named: name, in: session, app: app, within: WorkBudget(units: .max)).answer ?? false
  }

  /// `showedScreen` within `budget` (`ScreenSearch`): `nil` when it is spent before telling, and
  /// the budget as it is left. The events are read a page at a time, so a search that stops
  /// early reads no further.
  package func showedScreen(named name: String, in session: SessionID, app: AppName, within budget: WorkBudget)
    async throws(FleetError) -> (answer: Bool?, budget: WorkBudget)
  {
    try await database(timeout: replayTimeout) {
      try await self.client.withConnection { connection in
        let row = try await self.sessionRow(session, app: app, on: connection)
        var search = ScreenSearch(of: session, for: name, within: budget)
        var from = 1
        while search.wantsMore, from <= row.record.eventCount {
          let to = from + HistoryAudit.pageSize - 1
          try await connection.forEachStoredEvent(
            of: session, app: app, month: row.month, from: from, to: to, logger: self.logger
          ) { stored in try search.take(stored) }
          from = to + 1
        }
        return (search.answer, search.budget)
      }
    }
  }
}

extension PostgresFleet {
  /// Every session of `app` that has events, by id, read a chunk at a time.
  package func allSessions(app: AppName) async throws(FleetError) -> [SessionSummary] {
    var all: [SessionSummary] = []
    try await forEachSession(app: app, order: .id) { all.append($0) }
    return all
  }

  /// Calls `body` with each session of `app` that has events, in `order`, reading the rows
  /// `chunk` at a time (memory holds a chunk, whatever the app's size).
  package func forEachSession(
    app: AppName, order: SessionQuery.Order, chunk: Int = 1_000, _ body: (SessionSummary) throws -> Void
  ) async throws(FleetError) {
    var after: (lastAt: Timestamp, id: SessionID)?
    while true {
      let rows = try await sessionRows(app: app, order: order, after: after, limit: chunk)
      for summary in rows {
        do {
          try body(summary)
        } catch let error as FleetError {
          throw error
        } catch {
          throw .history(.caller(CallerError(error)))
        }
      }
      guard rows.count == chunk, let last = rows.last else { return }
      after = (last.lastAt ?? Timestamp(millisecondsSince1970: 0), last.id)
    }
  }
}
#endif
