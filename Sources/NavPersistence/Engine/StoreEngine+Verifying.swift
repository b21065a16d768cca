import NavCore

extension StoreEngine {
  /// Checks one session's stored history and row as `HistoryAudit` says.
  func verify(_ session: SessionID) throws(StoreError) -> VerificationResult {
    var snapshots: [Int: [UInt8]] = [:]
    let snapshotQuery = try prepare("SELECT seq, state FROM snapshots WHERE session_id = ?")
    defer { snapshotQuery.reset() }
    try bind(snapshotQuery, [.text(session.rawValue)])
    while try step(snapshotQuery) { snapshots[snapshotQuery.int(0)] = snapshotQuery.textBytes(1) }

    var audit = HistoryAudit(of: session, snapshots: snapshots)
    try forEachEvent(of: session, from: 1, to: Int.max) { audit.take($0) }
    return audit.result(row: audit.failure == nil ? try sessionRecord(session) : nil)
  }
}
