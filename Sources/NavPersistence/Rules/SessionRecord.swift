import NavCore

/// A session's row as stored, before any of it is trusted: the counters and summaries the store
/// keeps beside a session's events so listings need not read them. `verify` holds every field
/// to the events (`HistoryAudit`); listings turn it into a `SessionSummary`.
struct SessionRecord {
  /// The id as stored (a hand edit may have made it invalid).
  var id: String
  var eventCount: Int
  /// The chain value after the last event (`nil` before the first).
  var headHash: [UInt8]?
  var firstAt: Timestamp?
  var lastAt: Timestamp?
  var depth: Int
  var restoredFromSession: String?
  var restoredFromSeq: Int64?
  var durationMilliseconds: Int64
  var clockJumps: Int
  /// The start's context, as canonical JSON text (`nil`: none).
  var context: String?
  /// The lifecycle phase as stored (a hand edit may have made it unknown).
  var phase: String
  var foregroundMilliseconds: Int64

  /// The summary listings give, its ids checked.
  func summary() throws(StoreError) -> SessionSummary {
    var link: SessionLink?
    if let restoredFromSession, let restoredFromSeq {
      link = SessionLink(session: try SessionRecord.sessionID(restoredFromSession), seq: Int(restoredFromSeq))
    }
    return SessionSummary(
      id: try Self.sessionID(id), eventCount: eventCount, firstAt: firstAt, lastAt: lastAt, depth: depth,
      restoredFrom: link, durationMilliseconds: durationMilliseconds,
      foregroundMilliseconds: foregroundMilliseconds, phase: SessionPhase(rawValue: phase) ?? .foreground,
      clockJumps: clockJumps,
      // A hand-edited column that no longer reads lists as no context; `verify` names it.
      context: context.flatMap { try? WireFormat.decode(SessionContext.self, from: $0) })
  }

  /// A session id read back from the store, which a hand edit may have made invalid.
  static func sessionID(_ text: String) throws(StoreError) -> SessionID {
    if let id = try? SessionID(text) { return id }
    throw StoreError.unreadableSessionID(stored: text)
  }
}
