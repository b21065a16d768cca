import NavCore
@_spi(Internals) import NavPersistence

/// The collector's store on PostgreSQL: one database for every app, shared by any number of
/// collectors (`PostgresFleet`).
package struct PostgresBackend: FleetBackend {
  package let fleet: PostgresFleet

  package init(fleet: PostgresFleet) { self.fleet = fleet }

  package func authenticate(_ presented: String) async throws(FleetError) -> AccessToken? {
    try await fleet.authenticate(presented)
  }

  package func noteTokenUse(_ id: String) async throws(FleetError) { try await fleet.noteTokenUse(id) }

  package func ingest(_ lines: [ArraySlice<UInt8>], app: AppName, signedBy signer: DeviceKey?)
    async throws(FleetError) -> UploadOutcome
  {
    try await fleet.ingest(lines, app: app, signedBy: signer)
  }

  package func summary(of session: SessionID, app: AppName) async throws(FleetError) -> SessionSummary {
    try await fleet.summary(of: session, app: app)
  }

  package func head(of session: SessionID, app: AppName) async throws(FleetError) -> SessionHead {
    try await fleet.head(of: session, app: app)
  }

  package func history(of session: SessionID, app: AppName, from: Int, to: Int) async throws(FleetError) -> [AnyEvent] {
    try await fleet.history(of: session, app: app, from: from, to: to)
  }

  package func state(of session: SessionID, app: AppName, at seq: Int?) async throws(FleetError) -> SessionState {
    try await fleet.state(of: session, app: app, at: seq)
  }

  package func report(of session: SessionID, app: AppName, focus: Int?, omitsPayloads: Bool) async throws(FleetError)
    -> String
  {
    throw .notOnPostgreSQL("A session's report")
  }

  package func sessions(app: AppName, _ request: SessionsPageRequest) async throws(FleetError) -> SessionsPage {
    if request.screen != nil { throw .notOnPostgreSQL("Filtering sessions by a screen shown") }
    var buffered: [SessionSummary] = []
    var cursor = request.filters.after
    var exhausted = false
    let chunk = 500
    let fleet = fleet
    let order = request.filters.order
    return try await SessionsPage.make(
      request,
      next: { () async throws(FleetError) -> SessionSummary? in
        if buffered.isEmpty, !exhausted {
          let rows = try await fleet.sessionRows(app: app, order: order, after: cursor, limit: chunk)
          exhausted = rows.count < chunk
          if let last = rows.last { cursor = (last.lastAt ?? Timestamp(millisecondsSince1970: 0), last.id) }
          buffered = rows.reversed()
        }
        return buffered.popLast()
      },
      showedScreen: { (_, _) async throws(FleetError) -> Bool in false },
      verifies: { (session) async throws(FleetError) -> Bool in
        try await fleet.verify(session, app: app).isIntact
      })
  }

  package func checkExport(_ filter: ExportFilter, app: AppName) async throws(FleetError) {
    throw .notOnPostgreSQL("An export")
  }

  package func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, app: AppName,
    into sink: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(FleetError) {
    throw .notOnPostgreSQL("An export")
  }

  package func problems() async -> [String] {
    do {
      try await fleet.ping()
      return []
    } catch {
      return ["\(error)"]
    }
  }

  package func figures() async -> [StoreFigures] { [] }
}
