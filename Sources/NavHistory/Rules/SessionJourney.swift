import NavCore

/// A session's journey: the first session of the chain of restores it continues, which a funnel
/// follows across relaunches. Each engine keeps it in the session's row, by this rule, when the
/// session's `start` arrives.
///
/// A session that restores none begins its own journey. One that restores another takes that
/// one's journey, or that one's id when the store does not hold it (yet): when the session it
/// restores arrives later, every session of the store whose journey is that session's id moves
/// to the journey of the one that arrived (`moves`).
package enum SessionJourney {
  /// The journey of each new session of `restoring` (each new session, and the session its
  /// start restores, if any), those of an upload resolved through one another; `stored` holds
  /// the journeys the store keeps of the sessions restored that are not new. A stored journey
  /// that names a session of the upload goes on along that session's chain (it was stored while
  /// that session was missing). A loop of restores (only a hand-made history has one) begins its
  /// own journeys.
  package static func firsts(of restoring: [SessionID: SessionID?], stored: [SessionID: String]) -> [SessionID: String]
  {
    var firsts: [SessionID: String] = [:]
    for session in restoring.keys { firsts[session] = first(of: session, restoring, stored, &firsts) }
    return firsts
  }

  private static func first(
    of session: SessionID, _ restoring: [SessionID: SessionID?], _ stored: [SessionID: String],
    _ known: inout [SessionID: String]
  ) -> String {
    if let found = known[session] { return found }
    var chain: [SessionID] = [session]
    var first: String
    while true {
      guard let link = restoring[chain[chain.count - 1]] ?? nil else {
        first = chain[chain.count - 1].rawValue  // begins its own journey
        break
      }
      if let found = known[link] {
        first = found
        break
      }
      var next = link
      if restoring[link] == nil {
        // Held by the store, or not at all. The journey the store keeps for it may be a session
        // arriving now, whose own chain then goes on.
        guard let journey = stored[link] else {
          first = link.rawValue
          break
        }
        guard let arriving = try? SessionID(journey), restoring[arriving] != nil else {
          first = journey
          break
        }
        if let found = known[arriving] {
          first = found
          break
        }
        next = arriving
      }
      guard !chain.contains(next) else {
        first = session.rawValue  // a loop
        break
      }
      chain.append(next)
    }
    for member in chain { known[member] = first }
    return first
  }

  /// The journeys that move when `firsts` arrive: every session whose journey is one of these
  /// sessions' ids moves to that session's journey (none when a session begins its own).
  package static func moves(_ firsts: [SessionID: String]) -> [(from: String, to: String)] {
    firsts.compactMap { session, first in first == session.rawValue ? nil : (session.rawValue, first) }
      .sorted { $0.from < $1.from }
  }
}
