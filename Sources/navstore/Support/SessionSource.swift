import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavReport
@_spi(Internals) import NavTools

/// The sessions of the store `--db` names, as the commands that read and change them see them:
/// a store file, or one app's sessions in a PostgreSQL database. `StoreOption.withSessions`
/// chooses once; a command given one never asks which, so it prints the same lines from
/// either, and each failure is already the command's one line (`CLIError`).
protocol SessionSource {
  /// The session's row: its counts, times, link, context and launch.
  func summary(of session: SessionID) async throws -> SessionSummary

  /// The session's state after `seq` (its last event when `nil`).
  func state(of session: SessionID, at seq: Int?) async throws -> SessionState

  /// Calls `body` with each event from `from` to `to` (the last when `nil`) and the state after
  /// it.
  func replayHistory(
    of session: SessionID, from: Int, to: Int?, _ body: (AnyEvent, AnyCoordinator) throws -> Void
  ) async throws

  /// Calls `body` with each session that passes `query`'s row filters, in its order, until it
  /// returns `false`; memory holds a page of rows, whatever the store's size.
  func forEachSession(matching query: SessionQuery, _ body: (SessionSummary) async throws -> Bool) async throws

  /// Every session's row, by id.
  func allSessions() async throws -> [SessionSummary]

  /// The session's report, opening at `focus` (its last event when `nil`). The store's typed
  /// failure, for a command that tells an unknown session or seq from the others.
  func report(of session: SessionID, focus: Int?, omitsPayloads: Bool) async throws(FleetError) -> SessionReport

  /// Whether the session ever showed a screen named `name` on top.
  func showedScreen(named name: String, in session: SessionID) async throws -> Bool

  /// Whether the session's history verifies.
  func isIntact(_ session: SessionID) async throws -> Bool

  /// Verifies the named sessions (every session when `nil`), calling `each` with each verdict
  /// as it comes.
  func verify(_ sessions: [SessionID]?, each: (VerificationResult) -> Void) async throws -> VerificationSummary

  /// Checks that every session the signed checkpoint names still gives its chain value,
  /// calling `each` with each finding.
  func audit(
    against note: SignedNote, key: NoteVerifier, each: @escaping @Sendable (CheckpointFinding) -> Void
  ) async throws -> CheckpointAudit

  /// Writes an export of `table` to `sink`, a chunk at a time; `progress` is told the rows
  /// written so far, where the store counts them. Returns the cursor the export answers to:
  /// the rows received up to it are in it (those `filter.after` leaves out aside), and an
  /// export `after` it hands out what arrived since.
  @discardableResult
  func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, progress: ((Int) -> Void)?, to sink: OutputSink
  ) async throws -> Int64

  /// Writes a checkpoint of every session, signed by `signer`, which the store keeps.
  func checkpoint(signedBy signer: NoteSigner, at time: Timestamp) async throws -> SignedNote

  /// The proof that `session` is in the checkpoint `note`.
  func proof(of session: SessionID, in note: SignedNote) async throws -> SessionProof

  /// Writes `session` and the sessions it continues, oldest first, to a new file at `path`;
  /// returns them.
  func bundle(_ session: SessionID, to path: String) async throws -> [SessionID]

  /// Forgets `sessions` (all or nothing), returning their tombstones.
  func forget(_ sessions: [SessionID], at time: Timestamp) async throws -> [Tombstone]

  /// The sessions whose last event is before `cutoff`: what `prune` would forget.
  func sessions(lastBefore cutoff: Timestamp) async throws -> [SessionID]

  /// Forgets every session whose last event is before `cutoff`, telling `progress` the
  /// sessions forgotten so far where the store forgets them in several transactions.
  func prune(before cutoff: Timestamp, at time: Timestamp, progress: (Int) -> Void) async throws -> Pruning

  /// Imports JSON Lines events: in one transaction unless `batch` lines each, telling
  /// `progress` the lines read so far.
  func importLines(from reader: some JSONLinesSource, batch: Int?, progress: @escaping (Int) -> Void) async throws
    -> ImportSummary

  /// Throws why `--vacuum` cannot run on this store, before anything is changed.
  func checkSpaceCanBeReclaimed() throws

  /// Gives the space of deleted rows back to the file system: the store's bytes before and
  /// after.
  func reclaimSpace() async throws -> (before: Int64, after: Int64)
}

/// What a prune did: the tombstones it wrote and, on a store that keeps sessions in monthly
/// partitions, what became of the partitions of the months it emptied.
struct Pruning {
  var tombstones: [Tombstone]
  var partitions: PartitionSweepResult?
}

/// A store file's sessions.
struct StoreFileSessions: SessionSource {
  let store: SessionStore
  /// Whether this command made the file (an import that fails removes it, empty).
  var isNew = false

  func summary(of session: SessionID) async throws -> SessionSummary {
    try storeCall { () throws(StoreError) in try store.summary(of: session) }
  }

  func state(of session: SessionID, at seq: Int?) async throws -> SessionState {
    try storeCall { () throws(StoreError) in try store.state(of: session, at: seq) }
  }

  func replayHistory(
    of session: SessionID, from: Int, to: Int?, _ body: (AnyEvent, AnyCoordinator) throws -> Void
  ) async throws {
    try storeCall { () throws(StoreError) in try store.replayHistory(of: session, from: from, to: to, body) }
  }

  func forEachSession(matching query: SessionQuery, _ body: (SessionSummary) async throws -> Bool) async throws {
    // The store's listing is one read transaction that calls back synchronously: the rows a
    // page holds are taken first, then handed over, a page at a time.
    var query = query
    while true {
      var page: [SessionSummary] = []
      try storeCall { () throws(StoreError) in
        try store.forEachSession(matching: query) { session in
          page.append(session)
          return page.count < 1_000
        }
      }
      for session in page where try await !body(session) { return }
      guard page.count == 1_000, let last = page.last else { return }
      query.after = (last.lastAt ?? Timestamp(millisecondsSince1970: 0), last.id)
    }
  }

  func allSessions() async throws -> [SessionSummary] {
    try storeCall { () throws(StoreError) in try store.sessions() }
  }

  func report(of session: SessionID, focus: Int?, omitsPayloads: Bool) async throws(FleetError) -> SessionReport {
    try FleetError.storing { () throws(StoreError) in
      try SessionReport.load(session, from: store, focus: focus, omitsPayloads: omitsPayloads)
    }
  }

  func showedScreen(named name: String, in session: SessionID) async throws -> Bool {
    try storeCall { () throws(StoreError) in try store.showedScreen(named: name, in: session) }
  }

  func isIntact(_ session: SessionID) async throws -> Bool {
    try storeCall { () throws(StoreError) in try store.verify([session]).allSatisfy(\.isIntact) }
  }

  func verify(_ sessions: [SessionID]?, each: (VerificationResult) -> Void) async throws -> VerificationSummary {
    try storeCall { () throws(StoreError) in try store.verify(sessions, each: each) }
  }

  func audit(
    against note: SignedNote, key: NoteVerifier, each: @escaping @Sendable (CheckpointFinding) -> Void
  ) async throws -> CheckpointAudit {
    try storeCall { () throws(StoreError) in try store.audit(against: note, key: key, each: each) }
  }

  func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, progress: ((Int) -> Void)?, to sink: OutputSink
  ) async throws -> Int64 {
    let cursor = try storeCall { () throws(StoreError) in try store.exportCursor() }
    guard let bounded = filter.answering(cursor) else { throw CLIError.cursorAhead(filter.after, of: cursor) }
    try storeCall { () throws(StoreError) in
      _ = try store.exportEncoded(table, format: format, filter: bounded, progress: progress) { chunk in
        try sink.write { $0.append(contentsOf: chunk) }
      }
    }
    return cursor
  }

  func checkpoint(signedBy signer: NoteSigner, at time: Timestamp) async throws -> SignedNote {
    try storeCall { () throws(StoreError) in try store.checkpoint(signedBy: signer, at: time) }
  }

  func proof(of session: SessionID, in note: SignedNote) async throws -> SessionProof {
    try storeCall { () throws(StoreError) in try store.proof(of: session, in: note) }
  }

  func bundle(_ session: SessionID, to path: String) async throws -> [SessionID] {
    try storeCall { () throws(StoreError) in try store.bundle(session, to: path) }
  }

  func forget(_ sessions: [SessionID], at time: Timestamp) async throws -> [Tombstone] {
    try storeCall { () throws(StoreError) in try store.forget(sessions, at: time) }
  }

  func sessions(lastBefore cutoff: Timestamp) async throws -> [SessionID] {
    try storeCall { () throws(StoreError) in try store.sessions(lastBefore: cutoff) }
  }

  func prune(before cutoff: Timestamp, at time: Timestamp, progress: (Int) -> Void) async throws -> Pruning {
    // One transaction: nothing to tell until it is done.
    Pruning(tombstones: try storeCall { () throws(StoreError) in try store.prune(before: cutoff, at: time) })
  }

  func importLines(from reader: some JSONLinesSource, batch: Int?, progress: @escaping (Int) -> Void) async throws
    -> ImportSummary
  {
    do {
      return try storeCall { () throws(StoreError) in
        try store.importJSONLines(from: reader, batchSize: batch) { lines, _ in progress(lines) }
      }
    } catch {
      if isNew { Self.removeIfEmpty(store.path) }
      throw error
    }
  }

  /// Removes a store this import created and kept nothing in, so a failed import leaves no
  /// empty store behind. Only under an exclusive lock on an empty store: another process that
  /// is writing to it (or has written) keeps it. A process that opened the new file but has
  /// not begun to write in it yet is the one case this cannot see.
  private static func removeIfEmpty(_ path: String) {
    guard
      let connection = try? SQLiteConnection(path: path, mode: .readWrite(create: false), busyTimeoutMilliseconds: 0)
    else { return }
    guard (try? connection.execute("BEGIN EXCLUSIVE")) != nil else { return }
    defer { try? connection.execute("ROLLBACK") }
    let rows =
      (try? connection.integer("SELECT (SELECT count(*) FROM sessions) + (SELECT count(*) FROM events)")) ?? nil
    guard rows == 0 else { return }
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }

  func checkSpaceCanBeReclaimed() throws {}

  func reclaimSpace() async throws -> (before: Int64, after: Int64) {
    try storeCall { () throws(StoreError) in try store.reclaimSpace() }
  }
}

/// One app's sessions in a PostgreSQL database.
struct PostgresSessions: SessionSource {
  let fleet: PostgresFleet
  let app: AppName

  func summary(of session: SessionID) async throws -> SessionSummary {
    try await fleetCall { () async throws(FleetError) in try await fleet.summary(of: session, app: app) }
  }

  func state(of session: SessionID, at seq: Int?) async throws -> SessionState {
    try await fleetCall { () async throws(FleetError) in try await fleet.state(of: session, app: app, at: seq) }
  }

  func replayHistory(
    of session: SessionID, from: Int, to: Int?, _ body: (AnyEvent, AnyCoordinator) throws -> Void
  ) async throws {
    try await postgresCall { try await fleet.replayHistory(of: session, app: app, from: from, to: to, body) }
  }

  func forEachSession(matching query: SessionQuery, _ body: (SessionSummary) async throws -> Bool) async throws {
    var after = query.after
    while true {
      let rows = try await fleetCall { () async throws(FleetError) in
        try await fleet.sessionRows(app: app, order: query.order, after: after, limit: 1_000)
      }
      for session in rows where query.matches(session) {
        if try await !body(session) { return }
      }
      guard rows.count == 1_000, let last = rows.last else { return }
      after = (last.lastAt ?? Timestamp(millisecondsSince1970: 0), last.id)
    }
  }

  func allSessions() async throws -> [SessionSummary] {
    try await fleetCall { () async throws(FleetError) in try await fleet.allSessions(app: app) }
  }

  func report(of session: SessionID, focus: Int?, omitsPayloads: Bool) async throws(FleetError) -> SessionReport {
    try await fleet.report(of: session, app: app, focus: focus, omitsPayloads: omitsPayloads)
  }

  func showedScreen(named name: String, in session: SessionID) async throws -> Bool {
    try await fleetCall { () async throws(FleetError) in
      try await fleet.showedScreen(named: name, in: session, app: app)
    }
  }

  func isIntact(_ session: SessionID) async throws -> Bool {
    try await fleetCall { () async throws(FleetError) in try await fleet.verify(session, app: app).isIntact }
  }

  func verify(_ sessions: [SessionID]?, each: (VerificationResult) -> Void) async throws -> VerificationSummary {
    var ids = sessions ?? []
    if sessions == nil {
      ids = try await fleetCall { () async throws(FleetError) in try await fleet.allSessions(app: app).map(\.id) }
    }
    var summary = VerificationSummary()
    for id in ids {
      let result = try await fleetCall { () async throws(FleetError) in try await fleet.verify(id, app: app) }
      summary.add(result)
      each(result)
    }
    return summary
  }

  func audit(
    against note: SignedNote, key: NoteVerifier, each: @escaping @Sendable (CheckpointFinding) -> Void
  ) async throws -> CheckpointAudit {
    try await fleetCall { () async throws(FleetError) in
      try await fleet.audit(app: app, against: note, key: key, each: each)
    }
  }

  func export(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter, progress: ((Int) -> Void)?, to sink: OutputSink
  ) async throws -> Int64 {
    let cursor = try await postgresCall { try await fleet.exportCursor() }
    guard let bounded = filter.answering(cursor) else { throw CLIError.cursorAhead(filter.after, of: cursor) }
    try await postgresCall {
      try await fleet.export(table, format: format, filter: bounded, app: app) { chunk in
        try sink.write { $0.append(contentsOf: chunk) }
      }
    }
    return cursor
  }

  func checkpoint(signedBy signer: NoteSigner, at time: Timestamp) async throws -> SignedNote {
    try await fleetCall { () async throws(FleetError) in
      try await fleet.checkpoint(app: app, signedBy: signer, at: time)
    }
  }

  func proof(of session: SessionID, in note: SignedNote) async throws -> SessionProof {
    try await fleetCall { () async throws(FleetError) in try await fleet.proof(of: session, app: app, in: note) }
  }

  func bundle(_ session: SessionID, to path: String) async throws -> [SessionID] {
    let line = try await fleetCall { () async throws(FleetError) in try await fleet.lineage(of: session, app: app) }
    // The steps a store file's bundle takes, with the database's export in between.
    let file = try storeCall { () throws(StoreError) in try NewFile(at: path) }
    defer { file.discard() }
    let output = try storeCall { () throws(StoreError) in try file.create() }
    defer { try? output.close() }
    for member in line {
      try await postgresCall {
        try await fleet.export(.events, format: .jsonl, filter: ExportFilter(session: member), app: app) { chunk in
          try output.write(contentsOf: chunk)
        }
      }
    }
    try storeCall { () throws(StoreError) in
      try file.finish(output)
      try file.place()
    }
    return line
  }

  func forget(_ sessions: [SessionID], at time: Timestamp) async throws -> [Tombstone] {
    try await fleetCall { () async throws(FleetError) in try await fleet.forget(sessions, app: app, at: time) }
  }

  func sessions(lastBefore cutoff: Timestamp) async throws -> [SessionID] {
    try await fleetCall { () async throws(FleetError) in try await fleet.sessions(app: app, lastBefore: cutoff) }
  }

  func prune(before cutoff: Timestamp, at time: Timestamp, progress: (Int) -> Void) async throws -> Pruning {
    // Transactions of a thousand sessions: what those before a failure forgot stays forgotten.
    var forgotten = 0
    do throws(FleetError) {
      let (tombstones, partitions) = try await fleet.prune(app: app, before: cutoff, at: time) { count in
        forgotten = count
        progress(count)
      }
      return Pruning(tombstones: tombstones, partitions: partitions)
    } catch {
      guard forgotten > 0 else { throw CLIError(error.terminalMessage) }
      throw CLIError(
        "\(error.terminalMessage); \(forgotten) session\(forgotten == 1 ? " was" : "s were") forgotten before it, "
          + "and the same command again goes on")
    }
  }

  func importLines(from reader: some JSONLinesSource, batch: Int?, progress: @escaping (Int) -> Void) async throws
    -> ImportSummary
  {
    // Transactions of `batch` lines (10,000 unless given), each taken as the collector takes an
    // upload: a bad line stops the import, keeping the transactions before its own.
    let size = batch ?? 10_000
    var summary = ImportSummary()
    var sessions: Set<SessionID> = []
    var read = 0
    var reader = reader
    while true {
      var lines: [ArraySlice<UInt8>] = []
      do throws(LineReaderError) {
        while lines.count < size, let line = try reader.nextLine() { lines.append(line) }
      } catch {
        throw CLIError(StoreError.unreadableInput(error).terminalMessage)
      }
      guard !lines.isEmpty else { break }
      let (batch, first) = (lines, read + 1)
      let outcome = try await fleetCall { () async throws(FleetError) in
        try await fleet.ingest(batch, app: app, numberedFrom: first, allOrNothing: true)
      }
      summary.appended += outcome.accepted
      summary.alreadyStored += outcome.duplicates
      summary.transactions += 1
      for (session, head) in outcome.heads where head.seq > 0 { sessions.insert(session) }
      read += lines.count
      progress(read)
    }
    summary.sessions = sessions.count
    return summary
  }

  func checkSpaceCanBeReclaimed() throws { throw Self.vacuumRefused }

  func reclaimSpace() async throws -> (before: Int64, after: Int64) { throw Self.vacuumRefused }

  private static let vacuumRefused = CLIError(
    "--vacuum: a PostgreSQL database gives space back itself (VACUUM runs there)")
}
