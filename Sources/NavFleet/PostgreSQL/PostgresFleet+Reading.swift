import NavCore
@_spi(Internals) import NavPersistence
import PostgresNIO

extension PostgresFleet {
  /// A session's row (`unknownSession` when the app has none of this id).
  func sessionRow(_ session: SessionID, app: AppName, on connection: PostgresConnection) async throws
    -> SessionRowColumns
  {
    let rows = try await connection.query(
      """
      SELECT \(unescaped: SessionRowColumns.selectList) FROM sessions
        WHERE app = \(app.rawValue) AND id = \(session.rawValue)
      """, logger: self.logger)
    for try await columns in rows.decode(SessionRowColumns.Columns.self) { return SessionRowColumns(columns) }
    throw StoreError.unknownSession(session)
  }

  /// A session's summary.
  package func summary(of session: SessionID, app: AppName) async throws(FleetError) -> SessionSummary {
    try await database {
      try await self.client.withConnection { connection in
        try await self.sessionRow(session, app: app, on: connection).record.summary()
      }
    }
  }

  /// A session's last seq and chain value.
  package func head(of session: SessionID, app: AppName) async throws(FleetError) -> SessionHead {
    let totals = try await database {
      try await self.client.withConnection { connection in try await self.sessionRow(session, app: app, on: connection)
      }
    }.record.totals
    return SessionHead(seq: totals.count, hash: totals.count > 0 ? HashChain.hex(totals.headHash) : nil)
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
        let rows = try await connection.query(
          """
          SELECT \(unescaped: EventRowColumns.selectList) FROM events
            WHERE app = \(app.rawValue) AND session_id = \(session.rawValue) AND month = \(Int32(row.month))
              AND seq BETWEEN \(Int64(max(1, from))) AND \(Int64(max(0, min(to, row.record.eventCount))))
            ORDER BY seq
          """, logger: self.logger)
        for try await columns in rows.decode(EventRowColumns.Columns.self) {
          events.append(try EventRowColumns.row(columns).decoded())
        }
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
          throw StoreError.seqBeyondHistory(session: session, seq: target, last: count)
        }
        let state = try await Self.rehydrate(
          session, app: app, month: row.month, at: target, on: connection, logger: self.logger)
        return SessionState(session: session, seq: target, state: state)
      }
    }
  }

  /// Checks one session's stored history and row as `verify` does on SQLite (`HistoryAudit`).
  package func verify(_ session: SessionID, app: AppName) async throws(FleetError) -> VerificationResult {
    try await database {
      try await self.client.withConnection { connection in
        let row = try await self.sessionRow(session, app: app, on: connection)
        var snapshots: [Int: [UInt8]] = [:]
        let stored = try await connection.query(
          """
          SELECT seq, state FROM snapshots
            WHERE app = \(app.rawValue) AND session_id = \(session.rawValue) AND month = \(Int32(row.month))
          """, logger: self.logger)
        for try await (seq, state) in stored.decode((Int64, String).self) { snapshots[Int(seq)] = Array(state.utf8) }
        var audit = HistoryAudit(of: session, snapshots: snapshots)
        let rows = try await connection.query(
          """
          SELECT \(unescaped: EventRowColumns.selectList) FROM events
            WHERE app = \(app.rawValue) AND session_id = \(session.rawValue) AND month = \(Int32(row.month))
            ORDER BY seq
          """, logger: self.logger)
        for try await columns in rows.decode(EventRowColumns.Columns.self) {
          guard audit.failure == nil else { break }
          audit.take(try EventRowColumns.row(columns))
        }
        return audit.result(row: row.record)
      }
    }
  }

  /// The app's sessions in `order` after `after`, at most `limit` of them.
  func sessionRows(
    app: AppName, order: SessionQuery.Order, after: (lastAt: Timestamp, id: SessionID)?, limit: Int
  ) async throws(FleetError) -> [SessionSummary] {
    return try await database {
      let rows: PostgresRowSequence
      switch (order, after) {
      case (.id, nil):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: SessionRowColumns.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 ORDER BY id LIMIT \(Int64(limit))
          """, logger: self.logger)
      case (.id, let after?):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: SessionRowColumns.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 AND id > \(after.id.rawValue) ORDER BY id LIMIT \(Int64(limit))
          """, logger: self.logger)
      case (.lastActivity, nil):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: SessionRowColumns.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0 ORDER BY last_at DESC, id DESC LIMIT \(Int64(limit))
          """, logger: self.logger)
      case (.lastActivity, let after?):
        rows = try await self.client.query(
          """
          SELECT \(unescaped: SessionRowColumns.selectList) FROM sessions
            WHERE app = \(app.rawValue) AND event_count > 0
              AND (last_at, id) < (\(after.lastAt.millisecondsSince1970), \(after.id.rawValue))
            ORDER BY last_at DESC, id DESC LIMIT \(Int64(limit))
          """, logger: self.logger)
      }
      var summaries: [SessionSummary] = []
      for try await columns in rows.decode(SessionRowColumns.Columns.self) {
        summaries.append(try SessionRowColumns(columns).record.summary())
      }
      return summaries
    }
  }
}
