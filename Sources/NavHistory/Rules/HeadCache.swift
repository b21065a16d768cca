import NavCore

/// The heads of sessions (the state after each one's last event, and what else its keeper needs
/// of it) that a writer, the preparing thread, or a collector has seen, so an append does not rehydrate:
/// bounded in number and in the memory its states take, whatever the number of sessions a store
/// holds, an import touches, or the size of their trees.
///
/// Two generations stand in for a least-recently-used list: entries go into `recent`; when it
/// holds half the capacity, or half the weight, it becomes `older` and the previous `older` is
/// dropped; a hit in `older` moves back to `recent`. A session used at least once per
/// half-capacity of other sessions stays cached, the cache never holds more than `capacity`
/// heads nor much more than `weightLimit` (one head past it at most), and every step is one or
/// two dictionary operations (no linked list to keep).
package struct HeadCache<Key: Hashable, Head> {
  private let generationSize: Int
  private let generationWeight: Int
  private let weight: @Sendable (Head) -> Int
  private var recent: [Key: Head] = [:]
  private var older: [Key: Head] = [:]
  private var recentWeight = 0

  /// A cache of at most `capacity` heads (at least 2) weighing about `weightLimit` at most, a
  /// head weighing `weight`.
  package init(capacity: Int, weightLimit: Int, weight: @escaping @Sendable (Head) -> Int) {
    generationSize = max(1, capacity / 2)
    generationWeight = max(1, weightLimit / 2)
    self.weight = weight
  }

  /// The session's head, without counting as a use.
  package func peek(_ key: Key) -> Head? {
    recent[key] ?? older[key]
  }

  /// The session's head, which now counts as recently used.
  package mutating func get(_ key: Key) -> Head? {
    if let head = recent[key] { return head }
    guard let head = older.removeValue(forKey: key) else { return nil }
    insert(head, for: key)
    return head
  }

  /// Takes the session's head out (to edit its state in place, without a copy).
  package mutating func remove(_ key: Key) -> Head? {
    if let head = recent.removeValue(forKey: key) {
      recentWeight -= weight(head)
      return head
    }
    return older.removeValue(forKey: key)
  }

  /// Stores the session's head as the most recently used.
  package mutating func insert(_ head: Head, for key: Key) {
    older.removeValue(forKey: key)
    if let replaced = recent.updateValue(head, forKey: key) { recentWeight -= weight(replaced) }
    recentWeight += weight(head)
    if recent.count >= generationSize || recentWeight >= generationWeight {
      swap(&recent, &older)
      recent.removeAll(keepingCapacity: true)
      recentWeight = 0
    }
  }
}

extension RunningState {
  /// About the memory the state takes, in bytes: what a cache of heads weighs it by. A screen's
  /// JSON takes several times its text in memory (up to about 16 times for one made of small
  /// values, each an enum, an array's or a dictionary's slot and its storage), and a route a
  /// couple of hundred bytes besides: the estimate takes the high end, so the cache's bound holds.
  package var memoryWeight: Int { measure.routes * 256 + measure.screenBytes * 16 }
}
