#if Collector
@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory
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
        guard first <= count else { throw HistoryError.seqBeyondHistory(session: session, seq: first, last: count) }
        var replay = try await Self.rehydration(
          of: session, app: app, month: row.month, at: first - 1, on: connection, logger: logger)
        try await connection.forEachStoredEvent(
          of: session, app: app, month: row.month, from: first, to: upper, logger: logger
        ) { stored in
          let event = try replay.take(stored)
          if let state = replay.state { try body(event, state) }
        }
      }
    } catch let error as HistoryError {
      throw fleetError(error)
    } catch let error as PSQLError {
      throw fleetError(error)
    } catch let error as PostgresTransactionError {
      throw fleetError(error)
    }
  }
}
#endif
