#if Collector
@_spi(Internals) import NavArchive
import NavContract
import NavCore
@_spi(Internals) import NavHistory
import NavReport

/// The collector's store on PostgreSQL: one database for every app, shared by any number of
/// collectors (`PostgresFleet`), and optionally a streaming replica of it for the reads.
///
/// Tokens and uploads always go to the primary (a token just made must work, and an upload's
/// answer must be its commit). The read endpoints go to `reads` when there is one: a pool of
/// its own on the same database (a long export then never holds a connection uploads need),
/// or a replica. A replica a moment behind shows a session a moment late, and a device that
/// asks its head there resends what the primary holds already, which is answered as
/// duplicates.
package struct PostgresBackend: FleetBackend {
  package let fleet: PostgresFleet
  /// Where the reads go: a pool of their own (on the primary or a replica), or the primary's.
  private let reads: PostgresFleet

  package init(fleet: PostgresFleet, reads: PostgresFleet? = nil) {
    self.fleet = fleet
    self.reads = reads ?? fleet
  }

  package var tokens: any TokenChecking { fleet }

  package func ingest(
    _ lines: [ArraySlice<UInt8>], app: AppName, signedBy signer: DeviceKey?, datedUpTo latest: Timestamp
  ) async throws(FleetError) -> UploadOutcome {
    try await fleet.ingest(lines, app: app, signedBy: signer, datedUpTo: latest)
  }

  package func summary(of session: SessionID, app: AppName) async throws(FleetError) -> SessionSummary {
    try await reads.summary(of: session, app: app)
  }

  package func head(of session: SessionID, app: AppName) async throws(FleetError) -> SessionHead {
    try await reads.head(of: session, app: app)
  }

  package func heads(of sessions: [SessionID], app: AppName) async throws(FleetError) -> [SessionID: SessionHead] {
    try await reads.heads(of: sessions, app: app)
  }

  package func history(of session: SessionID, app: AppName, from: Int, to: Int) async throws(FleetError) -> [AnyEvent] {
    try await reads.history(of: session, app: app, from: from, to: to)
  }

  package func state(of session: SessionID, app: AppName, at seq: Int?) async throws(FleetError) -> SessionState {
    try await reads.state(of: session, app: app, at: seq)
  }

  package func report(of session: SessionID, app: AppName, focus: Int?, omitsPayloads: Bool) async throws(FleetError)
    -> SessionReport
  {
    try await reads.report(of: session, app: app, focus: focus, omitsPayloads: omitsPayloads)
  }

  package func verify(_ session: SessionID, app: AppName) async throws(FleetError) -> VerificationResult {
    try await reads.verify(session, app: app)
  }

  package func verify(_ session: SessionID, app: AppName, within budget: WorkBudget) async throws(FleetError) -> (
    result: VerificationResult?, budget: WorkBudget
  ) {
    try await reads.verify(session, app: app, within: budget)
  }

  package func sessions(app: AppName, _ request: SessionsPageRequest) async throws(FleetError) -> SessionsPage {
    let fleet = reads
    let order = request.filters.order
    return try await SessionsPage.make(
      request,
      fetch: { (after, limit) async throws(FleetError) -> [SessionSummary] in
        try await fleet.sessionRows(app: app, order: order, after: after, limit: limit)
      },
      showedScreen: { (session, screen, budget) async throws(FleetError) -> (answer: Bool?, budget: WorkBudget) in
        try await fleet.showedScreen(named: screen, in: session, app: app, within: budget)
      },
      verifies: { (session, budget) async throws(FleetError) -> (answer: Bool?, budget: WorkBudget) in
        let verified = try await fleet.verify(session, app: app, within: budget)
        return (verified.result?.isIntact, verified.budget)
      })
  }

  package func checkExport(_ filter: ExportFilter, app: AppName) async throws(FleetError) -> Int64 {
    if let session = filter.session { _ = try await reads.summary(of: session, app: app) }
    return try await reads.exportCursor()
  }

  package func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, app: AppName,
    into sink: ([UInt8]) async throws -> Void
  ) async throws {
    try await reads.export(table, format: format, filter: filter, app: app, into: sink)
  }

  package func apps() async throws(FleetError) -> [AppName] { try await fleet.apps() }

  package func problems() async -> [String] {
    var problems: [String] = []
    for database in reads === fleet ? [fleet] : [fleet, reads] {
      do {
        try await database.ping()
      } catch {
        problems.append("\(error)")
      }
    }
    return problems
  }

  package func figures() async -> [StoreFigures] { [] }
}
#endif
