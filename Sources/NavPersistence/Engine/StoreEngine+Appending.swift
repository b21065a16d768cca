import NavCore

extension StoreEngine {
  /// The statements every append runs, fetched once: finding a statement by its SQL hashes
  /// the whole text, four times per event. A class, so handing them out is one reference
  /// count, not four.
  final class AppendStatements {
    let insertSession: SQLiteStatement
    let insertEvent: SQLiteStatement
    let updateSession: SQLiteStatement
    /// Only for the events that move the session's lifecycle phase: writing the phase on every
    /// append cost a third of an import's time.
    let updatePhase: SQLiteStatement
    let insertSnapshot: SQLiteStatement
    /// For a new session that restores another: the sessions that arrived before it, moved to
    /// its journey (`SessionJourney`) and received again under the write's number, which their
    /// rows keep as the journey's (`StoredJourney`).
    let moveJourneys: SQLiteStatement

    init(
      insertSession: SQLiteStatement, insertEvent: SQLiteStatement, updateSession: SQLiteStatement,
      updatePhase: SQLiteStatement, insertSnapshot: SQLiteStatement, moveJourneys: SQLiteStatement
    ) {
      self.insertSession = insertSession
      self.insertEvent = insertEvent
      self.updateSession = updateSession
      self.updatePhase = updatePhase
      self.insertSnapshot = insertSnapshot
      self.moveJourneys = moveJourneys
    }
  }

  func statementsForAppending() throws(StoreError) -> AppendStatements {
    if let appendStatements { return appendStatements }
    let statements = AppendStatements(
      insertSession: try prepare(
        """
        INSERT INTO sessions (id, restored_from_session, restored_from_seq, context, launch, launch_reason,
          dropped_routes, journey) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """),
      insertEvent: try prepare(
        "INSERT INTO events (session_id, seq, at, origin, op, cause, hash, received) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
      ),
      // The row's totals as `SessionTotals.adding` computed them: no arithmetic here.
      updateSession: try prepare(
        """
        UPDATE sessions SET event_count = ?1, first_at = ?2, last_at = ?3, clock_jumps = ?4, duration_ms = ?5,
          foreground_ms = ?6, head_hash = ?7, depth = ?8, received = ?10 WHERE id = ?9
        """),
      updatePhase: try prepare("UPDATE sessions SET phase = ? WHERE id = ?"),
      insertSnapshot: try prepare("INSERT INTO snapshots (session_id, seq, state) VALUES (?, ?, ?)"),
      moveJourneys: try prepare(
        "UPDATE sessions SET journey = ?1, received = ?3, journey_received = ?3 WHERE journey = ?2 AND id <> ?2"))
    appendStatements = statements
    return statements
  }

  /// The last number a committed write was received under (which an incremental export's
  /// cursor counts): the highest a session holds (the last entry of `sessions_by_received`),
  /// or the counter's row where that is higher (a forgotten session's number, raised there
  /// before its row was deleted). Reading it writes nothing, so an append's commit does not
  /// write the counter's page. Writers take turns on the file, so every write that took a
  /// number at or below it has committed.
  package func lastReceivedNumber() throws(StoreError) -> Int64 {
    let statement = try prepare(
      "SELECT max((SELECT last FROM receipt_counter), (SELECT coalesce(max(received), 1) FROM sessions))")
    defer { statement.reset() }
    // No counter row (a damaged file) makes the number NULL.
    guard try step(statement), !statement.isNull(0) else { throw StoreError.damaged(path: path) }
    return statement.int64(0)
  }

  /// The number this write transaction's events are received under: one more than the last,
  /// read at its first append, so a transaction costs one more statement, not one per event. Writers take turns on the file,
  /// so the numbers commit in their order, and the sessions' rows the transaction writes hold
  /// its number by the time it commits.
  func receivedNumber() throws(StoreError) -> Int64 {
    if transaction != 0, let taken = receivedIn, taken.transaction == transaction { return taken.number }
    let number = try lastReceivedNumber() + 1
    receivedIn = (transaction, number)
    return number
  }

  /// The state `link` names, where the store holds its session that far (`nil` otherwise, or
  /// when that history no longer reads: there is then nothing to check a restore against).
  private func restoredState(_ link: SessionLink) throws(StoreError) -> AnyCoordinator? {
    guard link.seq >= 1, let source = try sessionRow(link.session), source.count >= link.seq else { return nil }
    do {
      // A restore of the source's last event (a launch's) reads its head: cached, or kept for it.
      if source.count == link.seq { return try head(of: link.session, row: source)?.state.tree }
      return try rehydrate(link.session, at: link.seq)
    } catch {
      if error.isStorageFailure { throw error }
      return nil
    }
  }

  /// The journey of a new session whose start restores `link` (`SessionJourney`).
  func journey(ofNew session: SessionID, restoring link: SessionID?) throws(StoreError) -> String {
    guard let link else { return session.rawValue }
    let stored = try storedJourney(of: link).map { [link: $0.first] } ?? [:]
    return SessionJourney.firsts(of: [session: link], stored: stored)[session] ?? session.rawValue
  }

  /// The journey `session`'s row keeps, and the number of the write that last moved it: `nil`
  /// without a row, or when the row has no journey (a hand edit).
  package func storedJourney(of session: SessionID) throws(StoreError) -> StoredJourney? {
    let statement = try prepare("SELECT journey, journey_received FROM sessions WHERE id = ?")
    defer { statement.reset() }
    try bind(statement, [.text(session.rawValue)])
    guard try step(statement), !statement.isNull(0) else { return nil }
    return StoredJourney(first: statement.text(0), moved: statement.int64(1))
  }

  /// Whether any session was ever forgotten, asked once per write transaction (nearly every
  /// store has no tombstones, and an import begins thousands of sessions in one transaction).
  func mayBeForgotten() throws(StoreError) -> Bool {
    if transaction != 0, noTombstonesIn == transaction { return false }
    let any =
      try sql { () throws(SQLiteError) in try connection.integer("SELECT EXISTS (SELECT 1 FROM tombstones)") } == 1
    if !any, transaction != 0 { noTombstonesIn = transaction }
    return any
  }

  /// Appends one event, placed and prepared as `AppendStep` says (the steps the collector's
  /// engines take too), its head kept in the cache; an event already stored (same seq, same
  /// content) is not written again. The row, the tombstone and a stored event are read only
  /// when the step asks for them.
  func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    let session = event.session
    lastPreparedRow = nil
    let row: SessionRow?
    if let trusted = trustedRow(session) { row = trusted } else { row = try sessionRow(session) }
    let before = row ?? SessionTotals()
    let placement = try AppendStep.place(
      event, afterCount: before.count,
      forgottenAt: { () throws(StoreError) in try mayBeForgotten() ? try forgottenAt(session) : nil },
      storedRow: { seq throws(StoreError) in try storedEventRow(session, seq: seq) })
    if case .alreadyStored(let stored) = placement {
      // The session has events (this one), so it has a state.
      guard let current = try head(of: session, row: row) else {
        throw StoreError.unreadableHistory(session: session, seq: stored.seq ?? before.count, .stateMissing)
      }
      return AppendOutcome(event: stored, state: current.state.tree, wasAlreadyStored: true)
    }
    if before.count == 0 {
      try AppendStep.checkRestore(event) { link throws(StoreError) in try restoredState(link) }
    }
    // The head leaves the cache while it is edited in place (no copy of its routes); it goes
    // back when the operation is refused, and the new head goes in once the rows are written.
    // Should a write fail, the cache simply has no head for the session and rehydrates.
    var running: RunningState?
    if before.count > 0, let row { running = try takeHead(of: session, row: row).state }
    let step: (prepared: PreparedEvent, totals: SessionTotals, state: AnyCoordinator)
    do {
      step = try AppendStep.prepare(event, after: before, state: &running, snapshotInterval: options.snapshotInterval)
    } catch {
      if let running { heads.insert(Head(totals: before, state: running, transaction: transaction), for: session) }
      throw StoreError(error)
    }
    guard let head = running else {
      throw StoreError.unreadableHistory(session: session, seq: step.prepared.seq, .stateMissing)
    }
    running = nil
    try writeRows(of: step.prepared, before: before, after: step.totals, insertingSession: row == nil)
    heads.insert(Head(totals: step.totals, state: head, transaction: transaction), for: session)
    return AppendOutcome(event: step.prepared.event, state: step.state, wasAlreadyStored: false)
  }
}
