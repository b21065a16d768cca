import NavCore
@_spi(Internals) import NavHistory

/// A session and the sessions it continues, walked through a fleet's rows on either engine.
package enum FleetLineage {
  /// `session` and the sessions it continues, oldest first (`SessionLineage`), each row read
  /// through `summary`: a session forgotten or pruned ends the line; the first must be there.
  /// The line ends after `limit` sessions, the newest.
  package static func walk(
    from session: SessionID, limit: Int = .max, summary: (SessionID) async throws(FleetError) -> SessionSummary
  ) async throws(FleetError) -> [SessionID] {
    var lineage = SessionLineage(of: session)
    while let next = lineage.next, lineage.count < limit {
      do throws(FleetError) {
        lineage.found(restoredFrom: try await summary(next).restoredFrom?.session)
      } catch {
        guard case .unknownSession? = error.history else { throw error }
        try FleetError.ruling(lineage.missing())
      }
    }
    return lineage.sessions
  }
}

extension FleetBackend {
  /// `session` and the sessions it continues that the app holds, oldest first, at most `limit`
  /// (the newest): what a bundle holds.
  package func lineage(of session: SessionID, app: AppName, limit: Int) async throws(FleetError) -> [SessionID] {
    try await FleetLineage.walk(from: session, limit: limit) { id throws(FleetError) in
      try await summary(of: id, app: app)
    }
  }
}
