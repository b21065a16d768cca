#if Collector
import Logging
import NavContract
import NavCore
@_spi(Internals) import NavPersistence
import NavReport
@_spi(Internals) import NavTools

/// The collector's store on SQLite: each app's sessions in a store file on the collector's disk
/// (`SQLiteFleet`), each file held to its identity (`AppStores`).
package struct SQLiteBackend: FleetBackend {
  package let fleet: SQLiteFleet
  let stores: AppStores

  package init(fleet: SQLiteFleet, logger: Logger) {
    self.fleet = fleet
    stores = AppStores(fleet: fleet, logger: logger)
  }

  package var tokens: any TokenChecking { fleet }

  package func ingest(
    _ lines: [ArraySlice<UInt8>], app: AppName, signedBy signer: DeviceKey?, datedUpTo latest: Timestamp
  ) async throws(FleetError) -> UploadOutcome {
    let uploads: IngestQueue
    do {
      uploads = try await stores.uploads(for: app)
    } catch {
      throw Self.unusable(error, app: app)
    }
    // Written with the uploads that wait beside it, in one transaction (group commit).
    let outcome = try await FleetError.storingAsync { () async throws(StoreError) in
      try await uploads.ingest(lines, signedBy: signer, datedUpTo: latest)
    }
    // Acknowledged only if the file it went to is still the one at the store's path.
    do {
      try await stores.check(app)
    } catch {
      throw Self.unusable(error, app: app)
    }
    return outcome
  }

  package func summary(of session: SessionID, app: AppName) async throws(FleetError) -> SessionSummary {
    let store = try await store(app)
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.read { try $0.summary(of: session) }
    }
  }

  package func head(of session: SessionID, app: AppName) async throws(FleetError) -> SessionHead {
    let store = try await store(app)
    // One read for the count and the last event (an unknown session throws).
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.offloadedRead { store throws(StoreError) in
        let count = try store.summary(of: session).eventCount
        return SessionHead(seq: count, hash: try store.history(of: session, from: count, to: count).last?.hash)
      }
    }
  }

  package func heads(of sessions: [SessionID], app: AppName) async throws(FleetError) -> [SessionID: SessionHead] {
    let store = try await store(app)
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.offloadedRead { store throws(StoreError) in try store.heads(of: sessions) }
    }
  }

  package func history(of session: SessionID, app: AppName, from: Int, to: Int) async throws(FleetError) -> [AnyEvent] {
    let store = try await store(app)
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.read { try $0.history(of: session, from: from, to: to) }
    }
  }

  package func state(of session: SessionID, app: AppName, at seq: Int?) async throws(FleetError) -> SessionState {
    let store = try await store(app)
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.read { try $0.state(of: session, at: seq) }
    }
  }

  package func report(of session: SessionID, app: AppName, focus: Int?, omitsPayloads: Bool) async throws(FleetError)
    -> SessionReport
  {
    let store = try await store(app)
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.offloadedRead { store throws(StoreError) in
        try SessionReport.load(
          session, from: store, focus: focus, omitsPayloads: omitsPayloads, windowSize: SessionReport.windowSize,
          verificationBudget: WorkBudget(units: SessionReport.verificationWork))
      }
    }
  }

  package func verify(_ session: SessionID, app: AppName) async throws(FleetError) -> VerificationResult {
    let store = try await store(app)
    let results = try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.read { try $0.verify([session]) }
    }
    guard let result = results.first else { throw .history(.unknownSession(session)) }
    return result
  }

  package func verify(_ session: SessionID, app: AppName, within budget: WorkBudget) async throws(FleetError) -> (
    result: VerificationResult?, budget: WorkBudget
  ) {
    let store = try await store(app)
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.offloadedRead { store throws(StoreError) in try store.verify(session, within: budget) }
    }
  }

  package func sessions(app: AppName, _ request: SessionsPageRequest) async throws(FleetError) -> SessionsPage {
    let store = try await store(app)
    let order = request.filters.order
    return try await SessionsPage.make(
      request,
      fetch: { (after, limit) async throws(FleetError) -> [SessionSummary] in
        var query = SessionQuery()
        query.order = order
        query.after = after
        let ordering = query
        return try await FleetError.storingAsync { () async throws(StoreError) in
          try await store.offloadedRead { store throws(StoreError) in
            var chunk: [SessionSummary] = []
            try store.forEachSession(matching: ordering) { summary in
              chunk.append(summary)
              return chunk.count < limit
            }
            return chunk
          }
        }
      },
      showedScreen: { (session, screen, budget) async throws(FleetError) -> (answer: Bool?, budget: WorkBudget) in
        try await FleetError.storingAsync { () async throws(StoreError) in
          try await store.offloadedRead { store throws(StoreError) in
            try store.showedScreen(named: screen, in: session, within: budget)
          }
        }
      },
      verifies: { (session, budget) async throws(FleetError) -> (answer: Bool?, budget: WorkBudget) in
        let verified = try await FleetError.storingAsync { () async throws(StoreError) in
          try await store.offloadedRead { store throws(StoreError) in try store.verify(session, within: budget) }
        }
        return (verified.result?.isIntact, verified.budget)
      })
  }

  package func checkExport(_ filter: ExportFilter, app: AppName) async throws(FleetError) -> Int64 {
    if let session = filter.session { _ = try await summary(of: session, app: app) }
    let store = try await store(app)
    return try await FleetError.storingAsync { () async throws(StoreError) in
      try await store.offloadedRead { store throws(StoreError) in try store.exportCursor() }
    }
  }

  package func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, app: AppName,
    into sink: ([UInt8]) async throws -> Void
  ) async throws {
    let store = try await store(app)
    // Each page is read when the sink has taken the one before: a slow reader holds nothing.
    do {
      for try await page in store.exportPages(table, format: format, filter: filter) { try await sink(page) }
    } catch let error as StoreError {
      throw FleetError(error)
    }
  }

  package func apps() async throws(FleetError) -> [AppName] { try await fleet.apps() }

  package func problems() async -> [String] {
    do {
      _ = try await fleet.apps()
    } catch {
      return ["the store does not answer: \(error)"]
    }
    return await stores.problems()
  }

  package func figures() async -> [StoreFigures] { await stores.figures() }

  private func store(_ app: AppName) async throws(FleetError) -> SessionStore {
    do {
      return try await stores.store(for: app)
    } catch {
      throw Self.unusable(error, app: app)
    }
  }

  /// What `AppStores` threw, as a fleet's error.
  private static func unusable(_ error: any Error, app: AppName) -> FleetError {
    .unusableStore(app: app, reason: (error as? AppStores.Broken)?.reason ?? "\(error)")
  }
}
#endif
