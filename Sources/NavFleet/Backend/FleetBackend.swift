@_spi(Internals) import NavArchive
import NavContract
import NavCore
@_spi(Internals) import NavPersistence
import NavReport

/// What the collector asks of a fleet's store, whatever engine keeps it: SQLite files on the
/// collector's disk (`SQLiteBackend`) or one PostgreSQL database shared by any number of
/// collectors (`PostgresBackend`).
///
/// Every call names the app it is for (the token's): another app's session answers as one that
/// does not exist. What the rows must say is decided by the same rules for both
/// (`UploadDecision`, `SessionAppender`, `HistoryAudit`); an engine only reads and writes rows.
package protocol FleetBackend: Sendable {
  /// The store's tokens, checked on every request: always the primary's, since a token just
  /// made must work at once.
  var tokens: any TokenChecking { get }
  /// Stores an upload's lines, each with its own outcome; every line answered stored is durable
  /// when this returns. A line dated after `latest` is rejected `from-the-future`.
  func ingest(_ lines: [ArraySlice<UInt8>], app: AppName, signedBy signer: DeviceKey?, datedUpTo latest: Timestamp)
    async throws(FleetError) -> UploadOutcome
  /// A session's summary (`unknownSession` when the app has none of this id).
  func summary(of session: SessionID, app: AppName) async throws(FleetError) -> SessionSummary
  /// A session's last seq and chain value.
  func head(of session: SessionID, app: AppName) async throws(FleetError) -> SessionHead
  /// The heads of many sessions, in one read: seq 0 and no hash for one the app does not hold.
  func heads(of sessions: [SessionID], app: AppName) async throws(FleetError) -> [SessionID: SessionHead]
  /// A session's events from `from` to `to`, inclusive.
  func history(of session: SessionID, app: AppName, from: Int, to: Int) async throws(FleetError) -> [AnyEvent]
  /// A session's state after `seq` (default: its last event).
  func state(of session: SessionID, app: AppName, at seq: Int?) async throws(FleetError) -> SessionState
  /// A session's report, as `navstore report` makes it (`ReportPage` writes it as a page).
  func report(of session: SessionID, app: AppName, focus: Int?, omitsPayloads: Bool) async throws(FleetError)
    -> SessionReport
  /// Whether a session's stored history is intact (hash chain, seqs, snapshots), and where it
  /// fails when not: a replay of the whole session.
  func verify(_ session: SessionID, app: AppName) async throws(FleetError) -> VerificationResult
  /// `verify` within `budget`, charged as it reads: `nil` when the budget is spent before the
  /// verdict, and the budget as it is left (for a page that verifies several sessions).
  func verify(_ session: SessionID, app: AppName, within budget: WorkBudget) async throws(FleetError) -> (
    result: VerificationResult?, budget: WorkBudget
  )
  /// A page of the app's sessions.
  func sessions(app: AppName, _ request: SessionsPageRequest) async throws(FleetError) -> SessionsPage
  /// Throws what an export with `filter` would be refused for before any of it is sent (a
  /// session the app does not have, an export this store does not make); returns the store's
  /// cursor now, which the export answers to (`ExportFilter.answering`).
  func checkExport(_ filter: ExportFilter, app: AppName) async throws(FleetError) -> Int64
  /// One of the app's tables, encoded, handed to `sink` a chunk at a time as it is made (in the
  /// caller's task: a slow `sink` holds the export back). Throws `FleetError` for the store's
  /// failures, and whatever `sink` throws.
  func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, app: AppName,
    into sink: ([UInt8]) async throws -> Void
  ) async throws
  /// Every app the store holds (`default` first), for work done for each (forwarding).
  func apps() async throws(FleetError) -> [AppName]
  /// Why the store cannot serve now, one sentence per problem (none: ready).
  func problems() async -> [String]
  /// The store's figures for the metrics.
  func figures() async -> [StoreFigures]
}

/// One store's size and state, for the metrics.
package struct StoreFigures: Sendable {
  /// The app (or, for a database, the name it is shown as).
  package let app: String
  package let databaseBytes: Int
  package let walBytes: Int
  package let ready: Bool

  package init(app: String, databaseBytes: Int, walBytes: Int, ready: Bool) {
    self.app = app
    self.databaseBytes = databaseBytes
    self.walBytes = walBytes
    self.ready = ready
  }
}
