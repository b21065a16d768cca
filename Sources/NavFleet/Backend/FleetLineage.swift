import NavCore
@_spi(Internals) import NavHistory

/// A session and the sessions it continues, walked through a fleet's rows on either engine.
package enum FleetLineage {
  /// The rows of `session` and the sessions it continues, oldest first (`SessionLineage`), each
  /// read through `summary`: a session forgotten or pruned ends the line; the first must be
  /// there. The line ends after `limit` sessions, the newest.
  package static func walk(
    from session: SessionID, limit: Int = .max, summary: (SessionID) async throws(FleetError) -> SessionSummary
  ) async throws(FleetError) -> [SessionSummary] {
    var lineage = SessionLineage(of: session)
    var rows: [SessionSummary] = []
    while let next = lineage.next, lineage.count < limit {
      do throws(FleetError) {
        let row = try await summary(next)
        rows.append(row)
        lineage.found(restoredFrom: row.restoredFrom?.session)
      } catch {
        guard case .unknownSession? = error.history else { throw error }
        try FleetError.ruling(lineage.missing())
      }
    }
    // Read newest first, one row for each session the line holds.
    return rows.reversed()
  }
}

extension FleetBackend {
  /// The rows of `session` and the sessions it continues that the app holds, oldest first, at
  /// most `limit` (the newest): what a bundle holds.
  package func lineage(of session: SessionID, app: AppName, limit: Int) async throws(FleetError) -> [SessionSummary] {
    try await FleetLineage.walk(from: session, limit: limit) { id throws(FleetError) in
      try await summary(of: id, app: app)
    }
  }
}
