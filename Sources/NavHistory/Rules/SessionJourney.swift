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
  /// the journeys the store keeps of the sessions restored that are not new. A loop of restores
  /// (only a hand-made history has one) begins its own journeys.
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
    var first = session.rawValue
    while let link = restoring[chain[chain.count - 1]] ?? nil {
      if let found = known[link] ?? stored[link] {
        first = found
        break
      }
      guard restoring[link] != nil, !chain.contains(link) else {
        // Not held, or a loop: the chain is known as far as this.
        first = restoring[link] == nil ? link.rawValue : session.rawValue
        break
      }
      chain.append(link)
      first = link.rawValue
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
