#if Collector
import Crypto
import NavContract
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO

extension PostgresFleet {
  /// Stores an upload's lines into `app`, each on its own, as `SessionStore.ingest` does on
  /// SQLite (`UploadDecision` decides both): in one transaction that holds every session the
  /// upload names (an advisory lock per session, taken in one order), so that collectors writing
  /// the same session one after the other can never fork its chain, and every line answered
  /// `accepted` or `duplicate` is committed once this returns. Throws only what is not a line's
  /// fault (the database unreachable or failing), and then nothing of the upload is kept.
  ///
  /// Uploads that arrive while others are written wait and go in one transaction together (group
  /// commit, `uploadGroups`): a group decides its uploads in their order of arrival, each with
  /// its own outcome, exactly as one transaction each would decide them.
  ///
  /// `numberedFrom` numbers the lines from there (an import's later batches); `allOrNothing`
  /// (an import's, written alone) keeps nothing of the lines when one of them is rejected, and
  /// throws `rejectedLine` naming the first.
  package func ingest(
    _ lines: [ArraySlice<UInt8>], app: AppName, signedBy signer: DeviceKey? = nil, numberedFrom first: Int = 1,
    allOrNothing: Bool = false, datedUpTo latest: Timestamp? = nil
  ) async throws(FleetError) -> UploadOutcome {
    let upload = PendingUpload(
      lines: UploadDecision.read(lines, numberedFrom: first, datedUpTo: latest), signer: signer)
    guard allOrNothing else { return try await uploadGroups(of: app).submit(upload, units: lines.count).get() }
    let outcomes = try await store([upload], in: app, allOrNothing: true)
    precondition(outcomes.count == 1, "one outcome for each upload stored")
    return outcomes[0]
  }

  /// How many of an app's upload groups a collector writes at once: a quarter of its pool, up
  /// to this many, so that their round trips overlap and the rest of the pool is left to the
  /// reads (each app has its own writers: several busy apps take more of the pool).
  static let groupWriters = 4

  /// The lines a group of uploads holds at most (an upload larger than that is written alone):
  /// a group's transaction stays well within a call's deadline.
  static let linesPerGroup = 2_000

  /// The uploads of `app` waiting to be written together (`groupWriters`, `linesPerGroup`). A
  /// group failing by a store's own refusal is written again upload by upload; one failing
  /// otherwise (the database out of reach) fails its uploads at once.
  private func uploadGroups(of app: AppName) -> GroupCommit<PendingUpload, UploadOutcome, FleetError> {
    let writers = min(Self.groupWriters, max(1, connections / 4))
    let database = address.description
    return groups.withLock { groups in
      if let known = groups[app] { return known }
      let made = GroupCommit<PendingUpload, UploadOutcome, FleetError>(
        writers: writers, unitsPerGroup: Self.linesPerGroup, retriesAlone: \.comesFromTheStore
      ) { [weak self] uploads throws(FleetError) in
        guard let self else { throw .database(address: database, reason: "the collector closed its pool") }
        return try await self.store(uploads, in: app, allOrNothing: false)
      }
      groups[app] = made
      return made
    }
  }

  /// Writes `uploads` into `app` in one transaction, each decided in turn against the sessions
  /// they name (all held at once): one outcome for each upload, in order.
  private func store(_ uploads: [PendingUpload], in app: AppName, allOrNothing: Bool) async throws(FleetError)
    -> [UploadOutcome]
  {
    let read = uploads.flatMap(\.lines)
    let named = UploadDecision.sessions(in: read)
    let interval = snapshotInterval
    guard !named.isEmpty else {
      // No line names a session: each upload's lines are all rejected, with nothing to hold.
      var none = HeldSessions(app: app, appenders: [:], owners: [:])
      return try Self.decide(uploads, in: &none, allOrNothing: allOrNothing)
    }
    let month = Self.month(of: .now)
    try await ensurePartitions(of: month)
    let logger = logger
    let heads = heads
    let (held, outcomes) = try await transaction { connection -> (HeldSessions, [UploadOutcome]) in
      var sessions = try await Self.hold(
        named, of: app, claims: read, on: connection, heads: heads, snapshotInterval: interval, logger: logger)
      let outcomes = try Self.decide(uploads, in: &sessions, allOrNothing: allOrNothing)
      try await Self.write(sessions, month: month, on: connection, logger: logger)
      return (sessions, outcomes)
    }
    for appender in held.appenders.values where !appender.written.isEmpty {
      if let state = appender.state {
        heads.note(app: app, session: appender.session, totals: appender.totals, state: state)
      }
    }
    return outcomes
  }

  /// Each upload decided in turn against `sessions`: its outcome, in order. An import's
  /// (`allOrNothing`) first rejected line is thrown.
  private static func decide(_ uploads: [PendingUpload], in sessions: inout HeldSessions, allOrNothing: Bool)
    throws(FleetError) -> [UploadOutcome]
  {
    var outcomes: [UploadOutcome] = []
    for upload in uploads {
      let outcome = try FleetError.ruling(UploadDecision.decide(upload.lines, signedBy: upload.signer, in: &sessions))
      try refuseRejected(outcome, if: allOrNothing)
      outcomes.append(outcome)
    }
    return outcomes
  }

  /// An import keeps nothing of a batch with a line it cannot take: its first rejected line is
  /// thrown (before anything is written) when `allOrNothing`.
  private static func refuseRejected(_ outcome: UploadOutcome, if allOrNothing: Bool) throws(FleetError) {
    if allOrNothing, let (line, rejection) = outcome.rejected.first {
      throw .rejectedLine(line: line, rejection)
    }
  }

  /// Locks the sessions `named` for the transaction and reads what an upload continues them
  /// from: rows, tombstones, states, and the stored events at the seqs the lines claim.
  private static func hold(
    _ named: [SessionID], of app: AppName, claims lines: [UploadDecision.Line], on connection: PostgresConnection,
    heads: HeadStates, snapshotInterval: Int, logger: Logger
  ) async throws -> HeldSessions {
    // One order for every collector (by key), so that two uploads never wait on each other.
    // The sessions the lines' starts restore are held too: a session and the one it restores,
    // arriving at two collectors at once, take their journeys one after the other.
    var restored = Set<SessionID>()
    for case .event(_, let event) in lines {
      if let link = event.operation.restoredFrom?.session { restored.insert(link) }
    }
    let keys = Set(named).union(restored).map { lockKey(app: app, session: $0) }.sorted()
    try await connection.run(IngestStatements.Lock(keys: keys), logger: logger)
    // Each named session's row, or its tombstone when it has no events, and the rows of the
    // sessions the starts restore: one round trip.
    var records: [SessionID: (record: SessionRecord, month: Int)] = [:]
    var forgotten: [SessionID: Timestamp] = [:]
    let rowsRead = named + restored.subtracting(named)
    try await connection.run(
      IngestStatements.HeldRows(app: app.rawValue, sessions: rowsRead.map(\.rawValue)), logger: logger
    ) { columns in
      let id = try SessionRecord.sessionID(columns.0)
      if let row = PostgresSessionRow(held: columns) { records[id] = (row.record, row.month) }
      if let at = columns.20 { forgotten[id] = Timestamp(millisecondsSince1970: at) }
    }
    // The stored rows the lines may resend: claims at or below a stored head.
    var claimed: [SessionID: Set<Int>] = [:]
    for case .event(_, let event) in lines {
      if let seq = event.seq, let stored = records[event.session], seq >= 1, seq <= stored.record.eventCount {
        claimed[event.session, default: []].insert(seq)
      }
    }
    var storedRows: [SessionID: [Int: StoredEventRow]] = [:]
    if !claimed.isEmpty {
      var sessions: [String] = []
      var months: [Int32] = []
      var seqs: [Int64] = []
      for (session, wanted) in claimed {
        for seq in wanted {
          sessions.append(session.rawValue)
          months.append(Int32(records[session]?.month ?? 0))
          seqs.append(Int64(seq))
        }
      }
      let rows = try await connection.query(
        """
        SELECT e.session_id, e.seq, e.at, e.origin, e.op, e.cause, e.hash, e.received
          FROM unnest(\(sessions)::text[], \(months)::integer[], \(seqs)::bigint[]) AS c (session_id, month, seq)
          JOIN events e ON e.app = \(app.rawValue) AND e.session_id = c.session_id AND e.month = c.month AND e.seq = c.seq
        """, logger: logger)
      try await readToTheEnd(rows.decode(PostgresEventRow.Columns.self)) { columns in
        let row = try PostgresEventRow.row(columns)
        storedRows[row.session, default: [:]][row.seq] = row
      }
    }
    var appenders: [SessionID: SessionAppender] = [:]
    var owners: [SessionID: DeviceKey?] = [:]
    var sources: [SessionLink: AnyCoordinator] = [:]
    for session in named {
      let stored = records[session]
      let totals = stored?.record.totals ?? SessionTotals()
      var state: RunningState?
      if let stored, totals.count > 0 {
        state = try await Self.state(
          of: session, app: app, month: stored.month, totals: totals, on: connection, heads: heads, logger: logger)
        owners[session] =
          stored.record.context.flatMap { try? WireFormat.decode(SessionContext.self, from: $0) }?
          .deviceKey
      }
      // A session a start restores, held where its lines begin: the state its later lines
      // lead from (`HeldSessions.restoredState`).
      if let state, restored.contains(session) {
        sources[SessionLink(session: session, seq: totals.count)] = state.tree
      }
      appenders[session] = SessionAppender(
        session: session, totals: totals, state: state, storedRows: storedRows[session] ?? [:],
        forgottenAt: forgotten[session], snapshotInterval: snapshotInterval)
    }
    // The states the starts restore, where the store holds their sessions that far.
    for case .event(_, let event) in lines {
      guard let link = event.operation.restoredFrom, sources[link] == nil, link.seq >= 1,
        let source = records[link.session], source.record.eventCount >= link.seq
      else { continue }
      let totals = source.record.totals
      if totals.count == link.seq, let known = heads.state(app: app, session: link.session, totals: totals) {
        sources[link] = known.tree
      } else {
        do {
          sources[link] = try await rehydrate(
            link.session, app: app, month: source.month, at: link.seq, on: connection, logger: logger)
        } catch is HistoryError {
          // A history that no longer reads: nothing to check the restore against.
        }
      }
    }
    var held = HeldSessions(app: app, appenders: appenders, owners: owners)
    held.months = records.mapValues(\.month)
    held.sources = sources
    return held
  }

  /// The running state after a stored session's last event: this process's copy when the row
  /// still says so, otherwise its latest snapshot and the events after it.
  private static func state(
    of session: SessionID, app: AppName, month: Int, totals: SessionTotals, on connection: PostgresConnection,
    heads: HeadStates, logger: Logger
  ) async throws -> RunningState {
    if let known = heads.state(app: app, session: session, totals: totals) { return known }
    return try await rehydration(of: session, app: app, month: month, at: totals.count, on: connection, logger: logger)
      .running()
  }

  /// The session's state at `seq`, from its latest snapshot at or before it and the events after.
  static func rehydrate(
    _ session: SessionID, app: AppName, month: Int, at seq: Int, on connection: PostgresConnection, logger: Logger
  ) async throws -> AnyCoordinator {
    try await rehydration(of: session, app: app, month: month, at: seq, on: connection, logger: logger).result()
  }

  /// A replay of the session positioned after `seq` (0: before its first event): its latest
  /// snapshot at or before `seq`, and the events after that snapshot, none missing.
  static func rehydration(
    of session: SessionID, app: AppName, month: Int, at seq: Int, on connection: PostgresConnection, logger: Logger
  ) async throws -> Rehydration {
    var rehydration = try Rehydration(of: session, snapshotAt: 0, snapshot: nil)
    var from = 1
    let snapshots = try await connection.query(
      """
      SELECT seq, state FROM snapshots
        WHERE app = \(app.rawValue) AND session_id = \(session.rawValue) AND month = \(Int32(month)) AND seq <= \(Int64(seq))
        ORDER BY seq DESC LIMIT 1
      """, logger: logger)
    for try await (at, state) in snapshots.decode((Int64, String).self) {
      rehydration = try Rehydration(of: session, snapshotAt: Int(at), snapshot: Array(state.utf8))
      from = Int(at) + 1
    }
    guard from <= seq else { return rehydration }
    try await connection.forEachStoredEvent(of: session, app: app, month: month, from: from, to: seq, logger: logger) {
      row in try rehydration.take(row)
    }
    try rehydration.check(reached: seq)
    return rehydration
  }

  /// Writes what the appenders decided in one statement whatever the upload's size: its events,
  /// the new sessions' whole rows, the snapshots and the stored sessions' new totals.
  private static func write(
    _ held: HeldSessions, month: Int, on connection: PostgresConnection, logger: Logger
  ) async throws {
    let app = held.app.rawValue
    var newSessions = SessionColumnsBatch()
    var events = IngestStatements.EventColumns()
    var snapshots = IngestStatements.SnapshotColumns()
    var stored = SessionColumnsBatch()
    for appender in held.appenders.values where !appender.written.isEmpty {
      let session = appender.session.rawValue
      let rowMonth = held.months[appender.session] ?? month
      if appender.stored.count == 0, let first = appender.written.first {
        try newSessions.addNew(session: session, month: rowMonth, start: first.event, totals: appender.totals)
      } else {
        stored.add(session: session, totals: appender.totals)
      }
      for prepared in appender.written {
        events.sessions.append(session)
        events.months.append(Int32(rowMonth))
        events.seqs.append(Int64(prepared.seq))
        events.ats.append(prepared.event.at.millisecondsSince1970)
        events.origins.append(prepared.event.origin.rawValue)
        events.operations.append(UTF8TextElement(utf8: prepared.operationBytes))
        events.causes.append(prepared.event.cause?.canonicalString ?? "")
        events.hashes.append(ByteaElement(bytes: prepared.hash))
        if let snapshot = prepared.snapshot {
          snapshots.sessions.append(session)
          snapshots.months.append(Int32(rowMonth))
          snapshots.seqs.append(Int64(prepared.seq))
          snapshots.states.append(String(decoding: snapshot, as: UTF8.self))
        }
      }
    }
    guard events.count > 0 else { return }
    let firsts = try await journeys(of: held, on: connection, logger: logger)
    newSessions.journeys = newSessions.ids.map { id in (try? SessionID(id)).flatMap { firsts[$0] } ?? id }
    try await connection.run(
      IngestStatements.Rows(app: app, events: events, new: newSessions, snapshots: snapshots, stored: stored),
      logger: logger)
    let moves = SessionJourney.moves(firsts)
    if !moves.isEmpty {
      try await connection.run(
        IngestStatements.MoveJourneys(app: app, from: moves.map(\.from), to: moves.map(\.to)), logger: logger)
    }
  }

  /// The journeys of the sessions the upload begins (`SessionJourney`), from the journeys the
  /// store keeps of the sessions they restore: one round trip, when one restores another.
  private static func journeys(of held: HeldSessions, on connection: PostgresConnection, logger: Logger) async throws
    -> [SessionID: String]
  {
    var restoring: [SessionID: SessionID?] = [:]
    for appender in held.appenders.values where appender.stored.count == 0 {
      guard let start = appender.written.first?.event else { continue }
      restoring[appender.session] = start.operation.restoredFrom?.session
    }
    let restorers = restoring.compactMap { session, link in link == nil ? nil : session.rawValue }
    guard !restorers.isEmpty else { return SessionJourney.firsts(of: restoring, stored: [:]) }
    // A journey read here may be moving in another collector's transaction (the session it names
    // arriving there): the app's journey lock, shared by readers and held alone by a transaction
    // that moves sessions, orders the two. Taken before this transaction writes a row, so that
    // nothing it waits behind waits for it.
    try await connection.run(
      """
      SELECT CASE WHEN EXISTS (
          SELECT 1 FROM sessions WHERE app = \(held.app.rawValue) AND journey = ANY(\(restorers)) AND id <> journey)
        THEN pg_advisory_xact_lock(\(journeyLockKey(app: held.app)))
        ELSE pg_advisory_xact_lock_shared(\(journeyLockKey(app: held.app))) END
      """, logger: logger)
    let outside = Set(restoring.values.compactMap { $0 }).filter { restoring[$0] == nil }
    var stored: [SessionID: String] = [:]
    if !outside.isEmpty {
      let rows = try await connection.query(
        """
        SELECT id, journey FROM sessions WHERE app = \(held.app.rawValue) AND id = ANY(\(outside.map(\.rawValue)))
        """, logger: logger)
      try await readToTheEnd(rows.decode((String, String?).self)) { id, journey in
        if let journey { stored[try SessionRecord.sessionID(id)] = journey }
      }
    }
    return SessionJourney.firsts(of: restoring, stored: stored)
  }

  /// The advisory lock of an app's journeys (`journeys(of:)`): a key no session's takes, the
  /// same hash over the app alone.
  static func journeyLockKey(app: AppName) -> Int64 {
    let digest = Array(SHA256.hash(data: Array(app.rawValue.utf8) + [1]))
    return digest.prefix(8).reduce(Int64(0)) { ($0 << 8) | Int64($1) }
  }

  /// The advisory lock of a session: 64 bits of SHA-256 over its app and id (two sessions that
  /// share one only wait for each other).
  static func lockKey(app: AppName, session: SessionID) -> Int64 {
    let digest = Array(SHA256.hash(data: Array(app.rawValue.utf8) + [0] + Array(session.rawValue.utf8)))
    return digest.prefix(8).reduce(Int64(0)) { ($0 << 8) | Int64($1) }
  }
}

/// An upload's lines, read, and the device that signed it: what waits to be written.
struct PendingUpload: Sendable {
  let lines: [UploadDecision.Line]
  let signer: DeviceKey?
}

/// The sessions of one transaction's uploads, held (locked and read) for it.
struct HeldSessions: IngestSessions, Sendable {
  typealias Failure = HistoryError
  let app: AppName
  var appenders: [SessionID: SessionAppender]
  /// The device key each stored session's start names.
  let owners: [SessionID: DeviceKey?]
  /// The partition month of each stored session.
  var months: [SessionID: Int] = [:]
  /// The states the upload's starts restore, as stored (`AppendStep.checkRestore`).
  var sources: [SessionLink: AnyCoordinator] = [:]

  func eventCount(of session: SessionID) -> Int { appenders[session]?.totals.count ?? 0 }

  func storedOwner(of session: SessionID) -> DeviceKey? {
    if let stored = owners[session] { return stored }
    // A session an earlier upload of this transaction started: its start's key, as a
    // transaction of its own would have read back.
    guard let appender = appenders[session], appender.stored.count == 0 else { return nil }
    return appender.written.first?.event.operation.context?.deviceKey
  }

  mutating func append(_ event: AnyEvent) throws(HistoryError) -> AppendOutcome {
    // Edited in place in the dictionary: a copy would copy the session's state on each event.
    let restored = event.operation.restoredFrom.flatMap(restoredState)
    guard let outcome = try appenders[event.session]?.append(event, restored: restored) else {
      throw HistoryError.unreadableHistory(session: event.session, seq: 0, .stateMissing)
    }
    return outcome
  }

  /// The state `link` names: as stored, or as the lines of this transaction before it made it
  /// (from the state its session was held at); `nil` where neither holds it.
  private func restoredState(_ link: SessionLink) -> AnyCoordinator? {
    if let stored = sources[link] { return stored }
    guard let appender = appenders[link.session], link.seq > appender.stored.count, link.seq <= appender.totals.count
    else { return nil }
    if link.seq == appender.totals.count { return appender.state?.tree }
    var state: AnyCoordinator?
    if appender.stored.count > 0 {
      guard let held = sources[SessionLink(session: link.session, seq: appender.stored.count)] else { return nil }
      state = held
    }
    for prepared in appender.written.prefix(link.seq - appender.stored.count) {
      guard (try? prepared.event.operation.apply(toSession: &state)) != nil else { return nil }
    }
    return state
  }

  func head(of session: SessionID) -> SessionHead {
    guard let totals = appenders[session]?.totals, totals.count > 0 else { return SessionHead(seq: 0, hash: nil) }
    return SessionHead(seq: totals.count, hash: HashChain.hex(totals.headHash))
  }
}
#endif
