import NavCore

/// A session's row as stored, before any of it is trusted: the counters and summaries the store
/// keeps beside a session's events so listings need not read them. `verify` holds every field
/// to the events (`HistoryAudit`); listings turn it into a `SessionSummary`.
package struct SessionRecord: Sendable {
  /// The id as stored (a hand edit may have made it invalid).
  package var id: String
  package var eventCount: Int
  /// The chain value after the last event (`nil` before the first).
  package var headHash: [UInt8]?
  package var firstAt: Timestamp?
  package var lastAt: Timestamp?
  package var depth: Int
  package var restoredFromSession: String?
  package var restoredFromSeq: Int64?
  package var durationMilliseconds: Int64
  package var clockJumps: Int
  /// The start's context, as canonical JSON text (`nil`: none).
  package var context: String?
  /// The lifecycle phase as stored (a hand edit may have made it unknown).
  package var phase: String
  package var foregroundMilliseconds: Int64
  /// The launch's outcome as stored (`nil`: the start did not say; a hand edit may have made it
  /// unknown).
  package var launch: String?
  /// Why the launch did what it did.
  package var launchReason: String?
  /// How many routes the launch's restore left out.
  package var droppedRoutes: Int
  /// The highest number under which the store received one of its events (see
  /// `SessionSummary.received`).
  package var received: Int64
  /// The first session of the chain of restores it continues (`SessionJourney`; `nil` in a
  /// row a hand edit emptied).
  package var journey: String?

  /// A row as read.
  package init(
    id: String, eventCount: Int, headHash: [UInt8]?, firstAt: Timestamp?, lastAt: Timestamp?, depth: Int,
    restoredFromSession: String?, restoredFromSeq: Int64?, durationMilliseconds: Int64, clockJumps: Int,
    context: String?, phase: String, foregroundMilliseconds: Int64, launch: String?, launchReason: String?,
    droppedRoutes: Int, received: Int64, journey: String?
  ) {
    self.id = id
    self.eventCount = eventCount
    self.headHash = headHash
    self.firstAt = firstAt
    self.lastAt = lastAt
    self.depth = depth
    self.restoredFromSession = restoredFromSession
    self.restoredFromSeq = restoredFromSeq
    self.durationMilliseconds = durationMilliseconds
    self.clockJumps = clockJumps
    self.context = context
    self.phase = phase
    self.foregroundMilliseconds = foregroundMilliseconds
    self.launch = launch
    self.launchReason = launchReason
    self.droppedRoutes = droppedRoutes
    self.received = received
    self.journey = journey
  }

  /// The totals an append continues from, as stored (unchecked: `verify` checks them).
  package var totals: SessionTotals {
    SessionTotals(
      count: eventCount, headHash: headHash ?? HashChain.genesis, phase: SessionPhase(rawValue: phase) ?? .foreground,
      firstAt: firstAt, lastAt: lastAt, clockJumps: clockJumps, durationMilliseconds: durationMilliseconds,
      foregroundMilliseconds: foregroundMilliseconds, depth: depth)
  }

  /// The summary listings give, its ids checked.
  package func summary() throws(HistoryError) -> SessionSummary {
    var link: SessionLink?
    if let restoredFromSession, let restoredFromSeq {
      link = SessionLink(session: try SessionRecord.sessionID(restoredFromSession), seq: Int(restoredFromSeq))
    }
    return SessionSummary(
      id: try Self.sessionID(id), eventCount: eventCount, firstAt: firstAt, lastAt: lastAt, depth: depth,
      restoredFrom: link, durationMilliseconds: durationMilliseconds,
      foregroundMilliseconds: foregroundMilliseconds, phase: SessionPhase(rawValue: phase) ?? .foreground,
      clockJumps: clockJumps,
      context: Self.context(context),
      // An outcome a hand edit made unknown lists as none; `verify` names it.
      launch: launch.flatMap(LaunchRecord.Outcome.init(rawValue:)), launchReason: launchReason,
      droppedRoutes: droppedRoutes, received: received, journey: journey)
  }

  /// A session's context read back from the store's column (canonical JSON text). A hand-edited
  /// column that no longer reads counts as no context; `verify` names it.
  package static func context(_ stored: String?) -> SessionContext? {
    stored.flatMap { try? WireFormat.decode(SessionContext.self, from: $0) }
  }

  /// A session id read back from the store, which a hand edit may have made invalid.
  package static func sessionID(_ text: String) throws(HistoryError) -> SessionID {
    if let id = try? SessionID(text) { return id }
    throw HistoryError.unreadableSessionID(stored: text)
  }
}
