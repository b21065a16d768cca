import NavCore

extension StoreEngine {
  /// Writes a prepared event computed elsewhere (by the preparing thread), when the session's
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
    let before = row ?? SessionTotals()
    let after = before.adding(prepared)
    try writeRows(of: prepared, before: before, after: after, insertingSession: row == nil)
    lastPreparedRow = (session, after, transaction)
    return true
  }

  /// Stores one entry of an import or a batch (`event`, the entry's): its prepared event when the session's head is
  /// still the one it was prepared after (then `nil` is returned: the entry's prepared event is
  /// what was stored), otherwise the event appended the sequential way, whose outcome is
  /// returned. What the event itself is refused for is wrapped as `.lineFailed` at the entry's
  /// position; a storage failure is thrown as it is, since it is not the line's fault.
  package func append(_ entry: AppendPipeline.Entry, _ event: AnyEvent) throws(StoreError) -> AppendOutcome? {
    do {
      // A start that restores another session is checked against it the sequential way.
      if let prepared = entry.prepared, event.operation.restoredFrom == nil, try appendPrepared(prepared) {
        return nil
      }
      return try append(event)
    } catch {
      throw error.isStorageFailure ? error : StoreError.lineFailed(line: entry.position, error)
    }
  }
}
