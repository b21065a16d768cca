import NavCore

extension StoreEngine {
  /// The rows of one event: the session's row when it is new, the event, a snapshot when the
  /// event has one, and the session's totals `after` it (`before`: the row's totals before it),
  /// which reach the row when the run of its session's events ends (`PendingRow`). The same for
  /// every way an event is appended.
  func writeRows(
    of prepared: PreparedEvent, before: SessionTotals, after: SessionTotals, insertingSession: Bool
  ) throws(StoreError) {
    let event = prepared.event
    let statements = try statementsForAppending()
    let received = try receivedNumber()
    if insertingSession {
      let start = try StoreError.ruling(SessionStartColumns(start: event.operation))
      func text(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
      let journey = try journey(ofNew: event.session, restoring: start.link?.session)
      try execute(
        statements.insertSession,
        [
          .text(event.session.rawValue), text(start.link?.session.rawValue), start.link.map { .int($0.seq) } ?? .null,
          text(start.context), text(start.launch), text(start.launchReason), .int(start.droppedRoutes),
          .text(journey),
        ])
      for move in SessionJourney.moves([event.session: journey]) {
        try execute(statements.moveJourneys, [.text(move.to), .text(move.from), .integer(received)])
      }
    }
    let seq = Int64(prepared.seq)
    let at = event.at.millisecondsSince1970
    var session = event.session.rawValue
    let failure: SQLiteError? = session.withUTF8 { session in
      prepared.hash.withUnsafeBytes { hash in
        var insertEvent = BorrowedExecution(statements.insertEvent)
        insertEvent.bind(text: session, at: 1)
        insertEvent.bind(seq, at: 2)
        insertEvent.bind(at, at: 3)
        insertEvent.bind(received, at: 8)
        var origin = event.origin.rawValue
        let cause = event.cause?.canonicalString
        let inserted = origin.withUTF8 { origin in
          prepared.operationBytes.withUnsafeBufferPointer { operation in
            insertEvent.bind(text: origin, at: 4)
            insertEvent.bind(text: operation, at: 5)
            insertEvent.bind(blob: hash, at: 7)
            guard var cause else {
              insertEvent.bindNull(at: 6)
              return insertEvent.run()
            }
            return cause.withUTF8 { cause in
              insertEvent.bind(text: cause, at: 6)
              return insertEvent.run()
            }
          }
        }
        if let inserted { return inserted }

        guard let snapshot = prepared.snapshot else { return nil }
        return snapshot.withUnsafeBufferPointer { state in
          var insertSnapshot = BorrowedExecution(statements.insertSnapshot)
          insertSnapshot.bind(text: session, at: 1)
          insertSnapshot.bind(seq, at: 2)
          insertSnapshot.bind(text: state, at: 3)
          return insertSnapshot.run()
        }
      }
    }
    if let failure { throw StoreError.from(failure, path: path) }
    // The row is written once per run of the session's events (see `PendingRow`).
    if let pending = pendingRow, pending.session != event.session { try flushPendingRow() }
    pendingRow = PendingRow(
      session: event.session, totals: after, phaseBefore: pendingRow?.phaseBefore ?? before.phase, received: received)
    // Outside a write transaction of this engine (no append runs there today), nothing would
    // write the row later: it is written now.
    if transaction == 0 { try flushPendingRow() }
  }

  /// Writes the totals of the session whose row is pending, if one is. (A pending row never
  /// outlives its transaction: `write` drops it at the start and at the end of each.)
  func flushPendingRow() throws(StoreError) {
    guard let pending = pendingRow else { return }
    pendingRow = nil
    let statements = try statementsForAppending()
    let totals = pending.totals
    let session = SQLiteValue.text(pending.session.rawValue)
    let last = totals.lastAt?.millisecondsSince1970 ?? 0
    try execute(
      statements.updateSession,
      [
        .integer(Int64(totals.count)), .integer(totals.firstAt?.millisecondsSince1970 ?? last), .integer(last),
        .integer(Int64(totals.clockJumps)), .integer(totals.durationMilliseconds),
        .integer(totals.foregroundMilliseconds), .blob(totals.headHash), .integer(Int64(totals.depth)), session,
        .integer(pending.received),
      ])
    // The phase changes only at a lifecycle event: written only then.
    if totals.phase != pending.phaseBefore {
      try execute(statements.updatePhase, [.text(totals.phase.rawValue), session])
    }
  }
}
