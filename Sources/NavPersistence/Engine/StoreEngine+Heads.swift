import NavCore

extension StoreEngine {
  /// The session's totals and state after its last event, from the cache when it is still true. `row` saves a query
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
    if var cached = heads.get(session), cached.totals.count == row.count, cached.totals.headHash == row.headHash {
      if cached.transaction != transaction {
        cached.transaction = transaction
        heads.insert(cached, for: session)
      }
      return cached
    }
    let head = Head(totals: row, state: try runningState(of: session, lastSeq: row.count), transaction: transaction)
    heads.insert(head, for: session)
    return head
  }

  /// The session's head for a row with events, taken out of the cache to be edited in place:
  /// the cached one when the row still says so, otherwise rehydrated. One cache lookup, where
  /// `head(of:)` followed by a removal would be three.
  func takeHead(of session: SessionID, row: SessionRow) throws(StoreError) -> Head {
    if let cached = heads.remove(session), cached.totals.count == row.count, cached.totals.headHash == row.headHash {
      return cached
    }
    return Head(totals: row, state: try runningState(of: session, lastSeq: row.count), transaction: transaction)
  }

  /// Forgets the cached head of a session whose rows are being deleted.
  func dropCachedHead(of session: SessionID) {
    _ = heads.remove(session)
  }
}
