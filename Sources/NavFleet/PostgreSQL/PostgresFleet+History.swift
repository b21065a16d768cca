@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import PostgresNIO

extension PostgresFleet {
  /// Calls `body` with each event of `session` from `from` to `to` and the state after it, as
  /// `SessionStore.replayHistory` does (`seqBeyondHistory` for a `from` past the end).
  package func replayHistory(
    of session: SessionID, app: AppName, from: Int, to: Int?,
    _ body: (AnyEvent, AnyCoordinator) throws -> Void
  ) async throws {
    let logger = logger
    do {
      try await client.withConnection { connection in
        let row = try await self.sessionRow(session, app: app, on: connection)
        let count = row.record.eventCount
        let upper = min(to ?? count, count)
        let first = max(1, from)
        guard first <= count else { throw StoreError.seqBeyondHistory(session: session, seq: first, last: count) }
        var state: AnyCoordinator? =
          first > 1
          ? try await Self.rehydrate(session, app: app, month: row.month, at: first - 1, on: connection, logger: logger)
          : nil
        let rows = try await connection.query(
          """
          SELECT \(unescaped: EventRowColumns.selectList) FROM events
            WHERE app = \(app.rawValue) AND session_id = \(session.rawValue) AND month = \(Int32(row.month))
              AND seq BETWEEN \(Int64(first)) AND \(Int64(upper))
            ORDER BY seq
          """, logger: logger)
        var failure: (any Error)?
        for try await columns in rows.decode(EventRowColumns.Columns.self) {
          guard failure == nil else { continue }  // read to the end: the stream holds the connection
          let stored = try EventRowColumns.row(columns)
          let event = try stored.decoded()
          do throws(NavigationError) {
            state = try event.operation.apply(to: state)
          } catch {
            throw StoreError.unreadableHistory(session: session, seq: stored.seq, .eventNoLongerApplies(error))
          }
          if let state {
            do { try body(event, state) } catch { failure = error }
          }
        }
        if let failure { throw failure }
      }
    } catch let error as StoreError {
      throw fleetError(error)
    } catch let error as PSQLError {
      throw fleetError(error)
    } catch let error as PostgresTransactionError {
      throw fleetError(error)
    }
  }
}
