import NavCore

/// The heads of sessions (the state after each one's last event, and what else its keeper needs
/// of it) that the writer, or the preparing thread, has seen, so an append does not rehydrate:
/// bounded, whatever the number of sessions a store holds or an import touches.
///
/// Two generations stand in for a least-recently-used list: entries go into `recent`; when it
/// is half the capacity, it becomes `older` and the previous `older` is dropped; a hit in
/// `older` moves back to `recent`. A session used at least once per half-capacity of other
/// sessions stays cached, the cache never holds more than `capacity` heads, and every step is
/// one or two dictionary operations (no linked list to keep).
struct HeadCache<Head> {
  private let generationSize: Int
  private var recent: [SessionID: Head] = [:]
  private var older: [SessionID: Head] = [:]

  /// A cache of at most `capacity` heads (at least 2).
  init(capacity: Int) {
    generationSize = max(1, capacity / 2)
  }

  /// The session's head, without counting as a use.
  func peek(_ session: SessionID) -> Head? {
    recent[session] ?? older[session]
  }

  /// The session's head, which now counts as recently used.
  mutating func get(_ session: SessionID) -> Head? {
    if let head = recent[session] { return head }
    guard let head = older.removeValue(forKey: session) else { return nil }
    insert(head, for: session)
    return head
  }

  /// Takes the session's head out (to edit its state in place, without a copy).
  mutating func remove(_ session: SessionID) -> Head? {
    recent.removeValue(forKey: session) ?? older.removeValue(forKey: session)
  }

  /// Stores the session's head as the most recently used.
  mutating func insert(_ head: Head, for session: SessionID) {
    older.removeValue(forKey: session)
    recent[session] = head
    if recent.count >= generationSize {
      swap(&recent, &older)
      recent.removeAll(keepingCapacity: true)
    }
  }
}
