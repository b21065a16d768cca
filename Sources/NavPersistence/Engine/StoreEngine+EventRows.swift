import NavCore

extension StoreEngine {
  /// The rows of one event: the session's row when it is new, the event, the session's totals
  /// after it (computed from `before`, the row's totals before it), and a snapshot when the
  /// event has one. The same for every way an event is appended. Returns the totals written.
  func writeRows(of prepared: PreparedEvent, after before: SessionTotals, insertingSession: Bool) throws(StoreError)
    -> SessionTotals
  {
    let event = prepared.event
    let statements = try statementsForAppending()
    if insertingSession {
      let link = event.operation.restoredFrom
      var context = SQLiteValue.null
      if let given = event.operation.context {
        do throws(WireFormatError) {
          context = .text(try WireFormat.canonicalString(given))
        } catch {
          throw StoreError.unencodable(error)
        }
      }
      let linkSession: SQLiteValue = link.map { .text($0.session.rawValue) } ?? .null
      let linkSeq: SQLiteValue = link.map { .int($0.seq) } ?? .null
      try execute(statements.insertSession, [.text(event.session.rawValue), linkSession, linkSeq, context])
    }
    let seq = Int64(prepared.seq)
    let at = event.at.millisecondsSince1970
    let after = before.adding(at: event.at, hash: prepared.hash, depth: prepared.depth, phase: prepared.phase)
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
        updateSession.bind(after.firstAt?.millisecondsSince1970 ?? at, at: 2)
        updateSession.bind(at, at: 3)
        updateSession.bind(Int64(after.clockJumps), at: 4)
        updateSession.bind(after.durationMilliseconds, at: 5)
        updateSession.bind(after.foregroundMilliseconds, at: 6)
        updateSession.bind(blob: hash, at: 7)
        updateSession.bind(Int64(after.depth), at: 8)
        updateSession.bind(text: session, at: 9)
        if let updated = updateSession.run() { return updated }
        // The phase changes only at a lifecycle event, and every lifecycle event changes it.
        if after.phase != before.phase {
          var phase = after.phase.rawValue
          let updated = phase.withUTF8 { phase in
            var updatePhase = BorrowedExecution(statements.updatePhase)
            updatePhase.bind(text: phase, at: 1)
            updatePhase.bind(text: session, at: 2)
            return updatePhase.run()
          }
          if let updated { return updated }
        }

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
    return after
  }
}
