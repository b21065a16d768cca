import CSQLite
import NavCore

/// The store's work on one connection: the writer's, while the store's writer lock is held, or
/// a reader's, taken from the store's reader pool.
///
/// The writer keeps the state after sessions' last events it has seen (their "heads", in a
/// bounded `HeadCache`), so an append does not rehydrate. A cached head is used only when the
/// session row still has the same seq and head hash, which holds it true across rollbacks and
/// other processes' writes; a head cached since the last commit of another connection (SQLite's
/// `data_version`) and not undone by a rollback stands for the row without reading it.
///
/// Not `Sendable`: it is used by one thread at a time, the writer's inside `WriterLock`, a
/// reader's between leaving and re-entering `ReaderPool`, which lend it to the work at hand
/// (`EngineLoan`) and own it otherwise.
final class StoreEngine {
  typealias Head = HeadCache.Head

  struct SessionRow {
    var count: Int
    var headHash: [UInt8]
  }

  /// The statements every append runs, fetched once: finding a statement by its SQL hashes
  /// the whole text, four times per event. A class, so handing them out is one reference
  /// count, not four.
  final class AppendStatements {
    let insertSession: SQLiteStatement
    let insertEvent: SQLiteStatement
    let updateSession: SQLiteStatement
    let insertSnapshot: SQLiteStatement

    init(insertSession: SQLiteStatement, insertEvent: SQLiteStatement, updateSession: SQLiteStatement, insertSnapshot: SQLiteStatement) {
      self.insertSession = insertSession
      self.insertEvent = insertEvent
      self.updateSession = updateSession
      self.insertSnapshot = insertSnapshot
    }
  }

  let connection: SQLiteConnection
  let options: StoreOptions
  let path: String
  var heads: HeadCache
  private var appendStatements: AppendStatements?
  /// The row of the session the last prepared event was written to (see `appendPrepared`).
  var lastPreparedRow: (session: SessionID, row: SessionRow, transaction: UInt64)?
  /// The number of the write transaction under way (0: none), which `Head.transaction` refers to.
  private(set) var transaction: UInt64 = 0
  private var transactionsBegun: UInt64 = 0
  /// The first write transaction of the current run in which no other connection committed
  /// anything (0: none): heads cached since then are still true without reading the session's
  /// row (see `trustedRow`).
  private var trustedSince: UInt64 = 0
  /// SQLite's `data_version` at the start of the last write transaction: it changes exactly
  /// when another connection (another process, another store on the file) commits.
  private var lastDataVersion: Int64?
  /// The write transaction in which the store was seen to have no tombstones (0: not seen):
  /// a new session then needs no lookup of its id among the forgotten ones.
  private var noTombstonesIn: UInt64 = 0

  init(connection: SQLiteConnection, options: StoreOptions, path: String) {
    self.connection = connection
    self.options = options
    self.path = path
    heads = HeadCache(capacity: options.headCacheCapacity)
  }

  /// Forgets the cached head of a session whose rows are being deleted.
  func dropCachedHead(of session: SessionID) {
    _ = heads.remove(session)
  }

  /// SQLite work on this engine's connection, its failure classified for the store's file
  /// (a full disk, a lock held too long, a failing disk, or another SQLite error).
  func sql<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw StoreError.from(error, path: path)
    }
  }

  func prepare(_ text: String) throws(StoreError) -> SQLiteStatement {
    try sql { () throws(SQLiteError) in try connection.statement(text) }
  }

  func run(_ text: String) throws(StoreError) {
    try sql { () throws(SQLiteError) in try connection.execute(text) }
  }

  func step(_ statement: SQLiteStatement) throws(StoreError) -> Bool {
    try sql { () throws(SQLiteError) in try statement.step() }
  }

  func bind(_ statement: SQLiteStatement, _ values: [SQLiteValue]) throws(StoreError) {
    try sql { () throws(SQLiteError) in try statement.bind(values) }
  }

  func execute(_ statement: SQLiteStatement, _ values: [SQLiteValue]) throws(StoreError) {
    try sql { () throws(SQLiteError) in try statement.execute(values) }
  }

  /// Runs a closure the caller gave the store, wrapping what it throws as the caller's error.
  static func callingBack<T>(_ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw .caller(CallerError(error))
    }
  }

  // MARK: Transactions

  /// One immediate write transaction: the write lock is taken up front (so a conflict
  /// surfaces as `.busy` at `BEGIN`, not halfway through), committed when `body` returns and
  /// rolled back when it throws.
  func write<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    guard options.access == .readWrite else { throw StoreError.readOnly(path: path) }
    transactionsBegun &+= 1
    transaction = transactionsBegun
    defer { transaction = 0 }
    do {
      return try connection.immediateTransaction(
        { () throws(StoreError) in
          try noteOtherWriters()
          return try body()
        }, classify: { StoreError.from($0, path: path) })
    } catch {
      // Heads cached in a transaction rolled back may be false: trust none from before.
      trustedSince = 0
      throw error
    }
  }

  /// Reads whether another connection committed since this one's last write transaction; run
  /// inside the write transaction, where nobody else can commit until it ends.
  private func noteOtherWriters() throws(StoreError) {
    let statement = try prepare("PRAGMA data_version")
    defer { statement.reset() }
    let version = try step(statement) ? statement.int64(0) : nil
    if version == nil || version != lastDataVersion || trustedSince == 0 { trustedSince = transaction }
    lastDataVersion = version
  }

  func statementsForAppending() throws(StoreError) -> AppendStatements {
    if let appendStatements { return appendStatements }
    let statements = AppendStatements(
      insertSession: try prepare(
        "INSERT INTO sessions (id, restored_from_session, restored_from_seq) VALUES (?, ?, ?)"),
      insertEvent: try prepare(
        "INSERT INTO events (session_id, seq, at, origin, op, cause, hash) VALUES (?, ?, ?, ?, ?, ?, ?)"),
      updateSession: try prepare(
        """
        UPDATE sessions SET event_count = ?1, first_at = coalesce(first_at, ?2),
          clock_jumps = clock_jumps + (?3 < coalesce(last_at, ?3)),
          duration_ms = min(duration_ms + max(0, ?3 - coalesce(last_at, ?3)), 9007199254740991),
          last_at = ?3, head_hash = ?4, depth = ?5 WHERE id = ?6
        """),
      insertSnapshot: try prepare("INSERT INTO snapshots (session_id, seq, state) VALUES (?, ?, ?)"))
    appendStatements = statements
    return statements
  }

  /// A read transaction: every query in `body` sees the same snapshot of the file.
  func read<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try run("BEGIN")
    defer { try? connection.execute("COMMIT") }
    return try body()
  }

  // MARK: Sessions

  func sessionRow(_ session: SessionID) throws(StoreError) -> SessionRow? {
    let statement = try prepare("SELECT event_count, head_hash FROM sessions WHERE id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement) else { return nil }
    return SessionRow(count: statement.int(0), headHash: statement.isNull(1) ? HashChain.genesis : statement.blob(1))
  }

  /// The session's last seq; throws `.unknownSession` when there is no such session.
  func eventCount(of session: SessionID) throws(StoreError) -> Int {
    guard let row = try sessionRow(session), row.count > 0 else { throw StoreError.unknownSession(session) }
    return row.count
  }

  /// Calls `body` with every session id in the store, in order: those with a session row and
  /// those with events, so a session whose row was emptied or deleted behind the store's back
  /// is still checked. SQLite merges the three tables' key orders, so nothing is gathered.
  func forEachSessionID(_ body: (SessionID) throws(StoreError) -> Void) throws(StoreError) {
    let statement = try prepare(
      "SELECT id FROM sessions UNION SELECT session_id FROM events UNION SELECT session_id FROM snapshots ORDER BY 1")
    defer { statement.reset() }
    while try step(statement) {
      try body(try Self.storedSessionID(statement.text(0)))
    }
  }

  /// Whether a session has a row, events or snapshots (the ids `forEachSessionID` lists).
  func sessionExists(_ session: SessionID) throws(StoreError) -> Bool {
    let statement = try prepare(
      """
      SELECT EXISTS (SELECT 1 FROM sessions WHERE id = ?1) OR EXISTS (SELECT 1 FROM events WHERE session_id = ?1)
        OR EXISTS (SELECT 1 FROM snapshots WHERE session_id = ?1)
      """)
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    return try step(statement) && statement.int(0) == 1
  }

  /// A session id read back from the file, which a hand edit may have made invalid.
  static func storedSessionID(_ text: String) throws(StoreError) -> SessionID {
    if let id = try? SessionID(text) { return id }
    throw StoreError.unreadableSessionID(stored: text)
  }

  /// The columns a `SessionSummary` is read from, in `summary(from:)`'s order.
  private static let summaryColumns =
    "id, event_count, first_at, last_at, depth, restored_from_session, restored_from_seq, duration_ms, clock_jumps"

  /// Calls `body` with every session that has events, ordered by id, one row at a time.
  func forEachSessionSummary(_ body: (SessionSummary) throws(StoreError) -> Void) throws(StoreError) {
    let statement = try prepare(
      "SELECT \(Self.summaryColumns) FROM sessions WHERE event_count > 0 ORDER BY id")
    defer { statement.reset() }
    while try step(statement) {
      try body(try Self.summary(from: statement))
    }
  }

  /// The session's summary, or `nil` when it has no events.
  func sessionSummary(_ session: SessionID) throws(StoreError) -> SessionSummary? {
    let statement = try prepare("SELECT \(Self.summaryColumns) FROM sessions WHERE id = ? AND event_count > 0")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement) else { return nil }
    return try Self.summary(from: statement)
  }

  /// The session whose last event is the newest (ties go to the greatest id), through the
  /// `last_at` index: one step, however many sessions the store holds.
  func latestSessionSummary() throws(StoreError) -> SessionSummary? {
    let statement = try prepare(
      "SELECT \(Self.summaryColumns) FROM sessions WHERE event_count > 0 ORDER BY last_at DESC, id DESC LIMIT 1")
    defer { statement.reset() }
    guard try step(statement) else { return nil }
    return try Self.summary(from: statement)
  }

  private static func summary(from statement: SQLiteStatement) throws(StoreError) -> SessionSummary {
    let session = try storedSessionID(statement.text(0))
    var link: SessionLink?
    if !statement.isNull(5), !statement.isNull(6) {
      link = SessionLink(session: try storedSessionID(statement.text(5)), seq: statement.int(6))
    }
    return SessionSummary(
      id: session, eventCount: statement.int(1),
      firstAt: statement.isNull(2) ? nil : Timestamp(millisecondsSince1970: statement.int64(2)),
      lastAt: statement.isNull(3) ? nil : Timestamp(millisecondsSince1970: statement.int64(3)),
      depth: statement.int(4), restoredFrom: link, durationMilliseconds: statement.int64(7), clockJumps: statement.int(8))
  }

  /// What a session's events say of it, for checking the columns its row derives from them.
  struct ReplayedFacts {
    var link: SessionLink?
    var clock = ClockOrder()
    var firstAt: Timestamp?
    var lastAt: Timestamp?
    var depth = 0
  }

  /// What the session row's derived columns get wrong, read in one query: its link columns
  /// against its start event's link (both empty when it has none), its clock columns against
  /// its events' times, then its first and last times and its depth (which listings,
  /// `latestSession` and `prune` read as stored) against its first and last events. `nil` when
  /// all agree.
  private func derivedColumnsProblem(_ facts: ReplayedFacts, of session: SessionID) throws(StoreError) -> String? {
    let link = facts.link
    let linkProblem = "the session's restoredFrom columns differ from its start event"
    let clockProblem = "the session's clock_jumps and duration_ms columns differ from its events' times"
    let statement = try prepare(
      "SELECT restored_from_session, restored_from_seq, clock_jumps, duration_ms, first_at, last_at, depth FROM sessions WHERE id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement) else { return link == nil ? clockProblem : linkProblem }
    let linkMatches: Bool
    if let link {
      linkMatches = !statement.isNull(0) && !statement.isNull(1)
        && statement.text(0).utf8.elementsEqual(link.session.rawValue.utf8) && statement.int64(1) == Int64(link.seq)
    } else {
      linkMatches = statement.isNull(0) && statement.isNull(1)
    }
    guard linkMatches else { return linkProblem }
    guard statement.int(2) == facts.clock.jumps, statement.int64(3) == facts.clock.durationMilliseconds else { return clockProblem }
    guard !statement.isNull(4), !statement.isNull(5), statement.int64(4) == facts.firstAt?.millisecondsSince1970,
      statement.int64(5) == facts.lastAt?.millisecondsSince1970
    else { return "the session's first_at and last_at columns differ from its first and last events' times" }
    guard statement.int(6) == facts.depth else { return "the session's depth column differs from its last state's" }
    return nil
  }

  /// The session's last seq and state, from the cache when it is still true. `row` saves a query
  /// when the caller has just read the session's row.
  func head(of session: SessionID, row knownRow: SessionRow? = nil) throws(StoreError) -> Head? {
    let row: SessionRow
    if let knownRow {
      row = knownRow
    } else if let stored = try sessionRow(session) {
      row = stored
    } else {
      return nil
    }
    guard row.count > 0 else { return nil }
    if var cached = heads.get(session), cached.seq == row.count, cached.hash == row.headHash {
      if cached.transaction != transaction {
        cached.transaction = transaction
        heads.insert(cached, for: session)
      }
      return cached
    }
    let head = Head(seq: row.count, hash: row.headHash, state: try rehydrate(session, at: row.count), transaction: transaction)
    heads.insert(head, for: session)
    return head
  }

  /// The session's head for a row with events, taken out of the cache to be edited in place:
  /// the cached one when the row still says so, otherwise rehydrated. One cache lookup, where
  /// `head(of:)` followed by a removal would be three.
  private func takeHead(of session: SessionID, row: SessionRow) throws(StoreError) -> Head {
    if let cached = heads.remove(session), cached.seq == row.count, cached.hash == row.headHash { return cached }
    return Head(seq: row.count, hash: row.headHash, state: try rehydrate(session, at: row.count), transaction: transaction)
  }

  // MARK: Appending

  func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    let session = event.session
    lastPreparedRow = nil
    let row: SessionRow?
    if let trusted = trustedRow(session) { row = trusted } else { row = try sessionRow(session) }
    let count = row?.count ?? 0
    if count == 0, try mayBeForgotten(), let forgotten = try forgottenAt(session) {
      throw StoreError.forgottenSession(session, at: forgotten)
    }
    guard count < Int.max else {
      throw StoreError.unreadableHistory(session: session, seq: count, reason: "the session's event count is impossible; run 'navstore verify'")
    }
    let next = count + 1
    if let claimed = event.seq, claimed != next {
      if claimed < next, let storedRow = try storedEventRow(session, seq: claimed) {
        let stored = try storedRow.decoded()
        if stored.hasSameContent(as: event) {
          let storedHash = HashChain.hex(storedRow.hash)
          if let hash = event.hash, hash != storedHash {
            throw StoreError.hashMismatch(session: session, seq: claimed, claimed: hash, computed: storedHash)
          }
          // The session has events (this one), so it has a state.
          guard let current = try head(of: session, row: row) else {
            throw StoreError.unreadableHistory(session: session, seq: claimed, reason: "the session has events but no state")
          }
          return AppendOutcome(event: stored, state: current.state, wasAlreadyStored: true)
        }
      }
      throw StoreError.conflict(session: session, expected: claimed, actual: next)
    }
    // The head leaves the cache while it is edited in place (no copy of its routes); it goes
    // back when the operation is refused, and the new head goes in once the rows are written.
    // Should a write fail, the cache simply has no head for the session and rehydrates.
    var previousHash = HashChain.genesis
    var running: AnyCoordinator?
    if count > 0, let row {
      let current = try takeHead(of: session, row: row)
      previousHash = current.hash
      running = current.state
    }
    let prepared: PreparedEvent
    do {
      prepared = try PreparedEvent.prepare(
        event, afterSeq: count, hash: previousHash, state: &running, snapshotInterval: options.snapshotInterval)
    } catch {
      if case .rejected = error, let running {
        heads.insert(Head(seq: count, hash: previousHash, state: running, transaction: transaction), for: session)
      }
      throw error
    }
    try writeRows(of: prepared, insertingSession: row == nil)
    guard let state = running else {
      throw StoreError.unreadableHistory(session: session, seq: next, reason: "the operation left no state")
    }
    heads.insert(Head(seq: next, hash: prepared.hash, state: state, transaction: transaction), for: session)
    return AppendOutcome(event: prepared.event, state: state, wasAlreadyStored: false)
  }

  /// Whether any session was ever forgotten, asked once per write transaction (nearly every
  /// store has no tombstones, and an import begins thousands of sessions in one transaction).
  func mayBeForgotten() throws(StoreError) -> Bool {
    if transaction != 0, noTombstonesIn == transaction { return false }
    let any = try sql { () throws(SQLiteError) in try connection.integer("SELECT EXISTS (SELECT 1 FROM tombstones)") } == 1
    if !any, transaction != 0 { noTombstonesIn = transaction }
    return any
  }

  /// The session's row as the store holds it, when its cached head says so without reading it:
  /// the head was cached in this transaction or in one since which no other connection has
  /// committed and none of this one's rolled back. Then a batch reads each session's row once,
  /// and an app appending one event per transaction none at all.
  func trustedRow(_ session: SessionID) -> SessionRow? {
    guard transaction != 0, trustedSince != 0, let head = heads.peek(session), head.transaction >= trustedSince else {
      return nil
    }
    return SessionRow(count: head.seq, headHash: head.hash)
  }

  /// Whether `session` is named for the first time in the import under way, kept in a
  /// temporary table (on disk beyond SQLite's small cache) rather than a set in memory, so an
  /// import of any number of sessions counts them in constant memory.
  func isFirstInImport(_ session: SessionID) throws(StoreError) -> Bool {
    let statement = try prepare("INSERT OR IGNORE INTO temp.imported_sessions (id) VALUES (?)")
    try execute(statement, [.text(session.rawValue)])
    return connection.changes == 1
  }

  /// Empties (creating when needed) the table `isFirstInImport` fills.
  func beginImportCount() throws(StoreError) {
    try run("CREATE TEMP TABLE IF NOT EXISTS imported_sessions (id TEXT PRIMARY KEY) WITHOUT ROWID")
    try run("DELETE FROM temp.imported_sessions")
  }

  // MARK: Reading events

  func storedEventRow(_ session: SessionID, seq: Int) throws(StoreError) -> StoredEventRow? {
    var found: StoredEventRow?
    try forEachEvent(of: session, from: seq, to: seq) { found = $0 }
    return found
  }

  func forEachEvent(of session: SessionID, from: Int, to: Int, _ body: (StoredEventRow) throws(StoreError) -> Void) throws(StoreError) {
    let statement = try prepare(
      "SELECT seq, at, origin, op, cause, hash FROM events WHERE session_id = ? AND seq BETWEEN ? AND ? ORDER BY seq")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue), .int(from), .int(to)])
    while try step(statement) {
      try body(
        StoredEventRow(
          session: session, seq: statement.int(0), at: statement.int64(1), origin: statement.text(2),
          op: statement.textBytes(3), cause: statement.isNull(4) ? nil : statement.textBytes(4),
          hash: statement.blob(5)))
    }
  }

  /// The state after event `seq`: the nearest snapshot at or before it, then the events after.
  func rehydrate(_ session: SessionID, at seq: Int) throws(StoreError) -> AnyCoordinator {
    var state: AnyCoordinator?
    var replayedUpTo = 0
    let snapshot = try prepare(
      "SELECT seq, state FROM snapshots WHERE session_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1")
    defer { snapshot.reset() }
    try bind(snapshot, [.text(session.rawValue), .int(seq)])
    if try step(snapshot) {
      replayedUpTo = snapshot.int(0)
      do {
        state = try WireFormat.decode(AnyCoordinator.self, from: snapshot.textBytes(1))
      } catch {
        throw StoreError.unreadableHistory(session: session, seq: replayedUpTo, reason: "snapshot: \(error)")
      }
    }
    try forEachEvent(of: session, from: replayedUpTo + 1, to: seq) { row throws(StoreError) in
      let event = try row.decoded()
      do {
        state = try event.operation.apply(to: state)
      } catch {
        throw StoreError.unreadableHistory(session: session, seq: row.seq, reason: "the event no longer applies: \(error)")
      }
    }
    guard let state else {
      throw StoreError.unreadableHistory(session: session, seq: 1, reason: "the session has no start event")
    }
    return state
  }

  // MARK: Verifying

  func verify(_ session: SessionID) throws(StoreError) -> VerificationResult {
    var facts = ReplayedFacts()
    func failure(_ seq: Int, _ reason: String) -> VerificationResult {
      VerificationResult(
        session: session, eventCount: seq - 1, failure: .init(seq: seq, reason: reason), clockJumps: facts.clock.jumps,
        firstClockJump: facts.clock.firstJump)
    }
    let row = try sessionRow(session) ?? SessionRow(count: -1, headHash: HashChain.genesis)
    var snapshots: [Int: [UInt8]] = [:]
    let snapshotQuery = try prepare("SELECT seq, state FROM snapshots WHERE session_id = ?")
    defer { snapshotQuery.reset() }
    try bind(snapshotQuery, [.text(session.rawValue)])
    while try step(snapshotQuery) { snapshots[snapshotQuery.int(0)] = snapshotQuery.textBytes(1) }

    var expectedSeq = 1
    var previous = HashChain.genesis
    var state: AnyCoordinator?
    var problem: VerificationResult?
    try forEachEvent(of: session, from: 1, to: Int.max) { stored in
      guard problem == nil else { return }
      guard stored.seq == expectedSeq else {
        problem = failure(expectedSeq, "event \(expectedSeq) is missing (the next stored event is \(stored.seq))")
        return
      }
      guard let event = try? stored.decoded() else {
        problem = failure(stored.seq, "the stored event cannot be read")
        return
      }
      guard let hash = try? HashChain.hash(of: event, after: previous) else {
        problem = failure(stored.seq, "the stored event cannot be written in the wire format, so it cannot be hashed")
        return
      }
      guard hash == stored.hash else {
        problem = failure(stored.seq, "the hash does not match the chain: the event was changed, or events were removed or reordered")
        return
      }
      guard let next = try? event.operation.apply(to: state) else {
        problem = failure(stored.seq, "the operation does not apply to the state before it")
        return
      }
      if let snapshot = snapshots.removeValue(forKey: stored.seq) {
        guard (try? WireFormat.decode(AnyCoordinator.self, from: snapshot)) == next else {
          problem = failure(stored.seq, "the snapshot differs from the replayed state")
          return
        }
      }
      if stored.seq == 1 { (facts.link, facts.firstAt) = (event.operation.restoredFrom, event.at) }
      facts.clock.add(event.at, seq: stored.seq)
      facts.lastAt = event.at
      state = next
      previous = hash
      expectedSeq += 1
    }
    if let problem { return problem }
    let last = expectedSeq - 1
    if row.count < 0 {
      return failure(1, "events are stored for this session, but its session row is missing")
    }
    if last != row.count {
      return failure(min(last, row.count) + 1, "the session records \(row.count) events but \(last) are stored")
    }
    if previous != row.headHash {
      return failure(max(last, 1), "the session's head hash is not the chain's last value")
    }
    facts.depth = state?.visibleDepth ?? 0
    if last > 0, let problem = try derivedColumnsProblem(facts, of: session) {
      return failure(1, problem)
    }
    if let orphan = snapshots.keys.min() {
      return failure(orphan, "a snapshot exists for an event that does not")
    }
    return VerificationResult(
      session: session, eventCount: last, failure: nil, clockJumps: facts.clock.jumps, firstClockJump: facts.clock.firstJump)
  }
}

extension NavigationEvent {
  /// Same session, time, origin, operation and cause: what makes a re-imported event a duplicate.
  func hasSameContent(as other: NavigationEvent) -> Bool {
    session == other.session && at == other.at && origin == other.origin && operation == other.operation
      && cause == other.cause
  }
}
