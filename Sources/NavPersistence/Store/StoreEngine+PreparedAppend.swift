import NavCore

extension StoreEngine {
  /// Writes a prepared event computed elsewhere (by the read-ahead thread), when the session's
  /// row still says what it was prepared after. Returns `false`, having written nothing, when
  /// it does not (another writer got there first, the preparer's view was stale) or when the
  /// session was forgotten: the caller then appends the event itself (`append(_:)`), which
  /// decides it afresh and throws what a sequential append throws.
  func appendPrepared(_ prepared: PreparedEvent) throws(StoreError) -> Bool {
    let session = prepared.event.session
    let row: SessionRow?
    let continuesLastSession: Bool
    if let last = lastPreparedRow, last.transaction == transaction, last.session == session {
      row = last.row
      continuesLastSession = true
    } else {
      continuesLastSession = false
      if let trusted = trustedRow(session) { row = trusted } else { row = try sessionRow(session) }
    }
    let count = row?.count ?? 0
    guard count == prepared.previousSeq else { return false }
    if count == 0 {
      if try mayBeForgotten(), try forgottenAt(session) != nil { return false }
    } else if row?.headHash != prepared.previousHash {
      return false
    }
    if !continuesLastSession {
      // A head this transaction cached for the session is about to be out of date.
      _ = heads.remove(session)
    }
    try writeRows(of: prepared, insertingSession: row == nil)
    lastPreparedRow = (session, SessionRow(count: prepared.seq, headHash: prepared.hash), transaction)
    return true
  }

  /// The rows of one event: the session's row when it is new, the event, the session's
  /// counters and head, and a snapshot when the event has one. The same for every way an event
  /// is appended.
  func writeRows(of prepared: PreparedEvent, insertingSession: Bool) throws(StoreError) {
    let event = prepared.event
    let statements = try statementsForAppending()
    if insertingSession {
      let link = event.operation.restoredFrom
      try execute(statements.insertSession, [
        .text(event.session.rawValue), link.map { .text($0.session.rawValue) } ?? .null, link.map { .int($0.seq) } ?? .null,
      ])
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

        var updateSession = BorrowedExecution(statements.updateSession)
        updateSession.bind(seq, at: 1)
        updateSession.bind(at, at: 2)
        updateSession.bind(at, at: 3)
        updateSession.bind(blob: hash, at: 4)
        updateSession.bind(Int64(prepared.depth), at: 5)
        updateSession.bind(text: session, at: 6)
        if let updated = updateSession.run() { return updated }

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
  }
}

extension StoreEngine {
  /// Stores one entry of an import or a batch: its prepared event when the session's head is
  /// still the one it was prepared after (then `nil` is returned: the entry's prepared event is
  /// what was stored), otherwise the event appended the sequential way, whose outcome is
  /// returned. What the event itself is refused for is wrapped as `.lineFailed` at the entry's
  /// position; a storage failure is thrown as it is, since it is not the line's fault.
  func append(_ entry: AppendPipeline.Entry) throws(StoreError) -> AppendOutcome? {
    do {
      if let prepared = entry.prepared, try appendPrepared(prepared) { return nil }
      return try append(entry.event)
    } catch {
      throw error.isStorageFailure ? error : StoreError.lineFailed(line: entry.position, error)
    }
  }
}
