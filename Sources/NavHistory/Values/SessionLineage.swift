import NavCore

/// A session and the sessions it continues (each restored at launch from the one before, its
/// `restoredFrom`), walked back one row at a time: the one rule both engines bundle a session
/// by. The caller reads the row of `next` and says what it found, until `next` is `nil`.
package struct SessionLineage: Sendable {
  private var newestFirst: [SessionID] = []
  /// The session whose row is to be read next; `nil` once the line is complete.
  package private(set) var next: SessionID?

  /// Starts at `session`, which must be in the store.
  package init(of session: SessionID) {
    next = session
  }

  /// `next` is in the store and continues `restoredFrom` (`nil`: it began afresh). A line that
  /// comes back to a session already in it ends there.
  package mutating func found(restoredFrom: SessionID?) {
    guard let next else { return }
    newestFirst.append(next)
    self.next = restoredFrom.flatMap { newestFirst.contains($0) ? nil : $0 }
  }

  /// `next` is not in the store: a session forgotten or pruned ends the line, while the session
  /// the walk started at must be there (`.unknownSession`).
  package mutating func missing() throws(HistoryError) {
    guard let next else { return }
    guard !newestFirst.isEmpty else { throw .unknownSession(next) }
    self.next = nil
  }

  /// How many sessions the line holds so far.
  package var count: Int { newestFirst.count }

  /// The line, oldest first.
  package var sessions: [SessionID] { newestFirst.reversed() }
}
