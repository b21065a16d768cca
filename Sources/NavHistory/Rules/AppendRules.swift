import NavCore

/// What an append checks before anything is written, apart from how rows are read: the same
/// rules for every storage engine. The state rules (the operation applies, the claimed hash
/// is the chain's) are `PreparedEvent.prepare`'s.
enum AppendRules {
  /// The seq the session's next event takes, after `count` events.
  static func nextSeq(of session: SessionID, after count: Int) throws(HistoryError) -> Int {
    guard count < Int.max else {
      throw HistoryError.unreadableHistory(session: session, seq: count, .impossibleEventCount)
    }
    return count + 1
  }

  /// An event that names a seq (`claimed`) other than its session's next one: a copy of the
  /// event stored at that seq is a duplicate, and the stored event is returned (what an import
  /// of the same file twice meets); anything else is a conflict. `stored` is the row at
  /// `claimed`, when there is one.
  static func storedCopy(
    of event: AnyEvent, claiming claimed: Int, next: Int, stored: StoredEventRow?
  ) throws(HistoryError) -> AnyEvent {
    if claimed < next, let stored {
      let storedEvent = try stored.decoded()
      if storedEvent.hasSameContent(as: event) {
        let storedHash = HashChain.hex(stored.hash)
        if let hash = event.hash, hash != storedHash {
          throw HistoryError.hashMismatch(session: event.session, seq: claimed, claimed: hash, computed: storedHash)
        }
        return storedEvent
      }
    }
    throw HistoryError.conflict(session: event.session, expected: claimed, actual: next)
  }
}

extension NavigationEvent {
  /// Same session, time, origin, operation and cause: what makes a re-imported event a duplicate.
  func hasSameContent(as other: NavigationEvent) -> Bool {
    session == other.session && at == other.at && origin == other.origin && operation == other.operation
      && cause == other.cause
  }
}
