import Synchronization

/// Work items written in groups (group commit): items that arrive while a group is being written
/// wait, and the next writer takes them together, so that many small uploads cost a few
/// transactions instead of one each.
///
/// At most `writers` groups are written at once (1 for a SQLite store, whose one writer would
/// serialize them anyway; a few for PostgreSQL, whose round trips overlap). A writer takes the
/// waiting items in their order of arrival, up to `unitsPerGroup` units (lines) and always one
/// item at least, and `write` gives one outcome per item, in order. When a group of several
/// fails with an error `retriesAlone` accepts, each of its items is written again in a group of
/// its own, so that a failure that belongs to one item (a session whose stored history cannot
/// be read) is that item's alone. An error it refuses (a database out of reach) fails every
/// item of the group at once, and so does one that comes while the items are written alone:
/// none of the rest waits for its own try of a failing database.
package final class GroupCommit<Item: Sendable, Outcome: Sendable, Failure: Error>: Sendable {
  /// Writes a group: one outcome per item, in the items' order, or the group's failure.
  package typealias Write = @Sendable ([Item]) async throws(Failure) -> [Outcome]

  /// An item waiting for a writer, its size, and where its outcome goes.
  private struct Waiting {
    let item: Item
    let units: Int
    let answer: CheckedContinuation<Result<Outcome, Failure>, Never>
  }

  /// What the writers share: the items waiting in their order of arrival, how many writers run,
  /// and the groups tried so far.
  private struct State {
    var waiting: [Waiting] = []
    var writing = 0
    var attempts = 0
  }

  private let state = Mutex(State())
  private let writers: Int
  private let unitsPerGroup: Int
  private let retriesAlone: @Sendable (Failure) -> Bool
  private let write: Write

  /// Groups written so far, each attempt counted (committed or not): how tests see that items
  /// were grouped, and retried.
  package var attempts: Int { state.withLock { $0.attempts } }

  /// The items waiting for a writer now.
  package var waitingCount: Int { state.withLock { $0.waiting.count } }

  /// Groups of up to `unitsPerGroup` units, at most `writers` written at once by `write`.
  package init(
    writers: Int = 1, unitsPerGroup: Int, retriesAlone: @escaping @Sendable (Failure) -> Bool = { _ in true },
    write: @escaping Write
  ) {
    self.writers = max(1, writers)
    self.unitsPerGroup = max(1, unitsPerGroup)
    self.retriesAlone = retriesAlone
    self.write = write
  }

  /// Writes `item` (counted as `units`) in the next group a writer takes; its own outcome once
  /// that group is written.
  package func submit(_ item: Item, units: Int) async -> Result<Outcome, Failure> {
    await withCheckedContinuation { answer in
      let starts = state.withLock { state -> Bool in
        state.waiting.append(Waiting(item: item, units: max(1, units), answer: answer))
        guard state.writing < writers else { return false }
        state.writing += 1
        return true
      }
      if starts { Task { await self.writeWhileWaiting() } }
    }
  }

  /// Writes the waiting items, a group at a time, until none waits.
  private func writeWhileWaiting() async {
    while true {
      let group = state.withLock { state -> [Waiting] in
        var taken = 0
        var units = 0
        while taken < state.waiting.count, taken == 0 || units + state.waiting[taken].units <= unitsPerGroup {
          units += state.waiting[taken].units
          taken += 1
        }
        let group = Array(state.waiting.prefix(taken))
        state.waiting.removeFirst(taken)
        if group.isEmpty { state.writing -= 1 }
        return group
      }
      if group.isEmpty { return }
      let results = await commit(group.map(\.item))
      for (waiting, result) in zip(group, results) { waiting.answer.resume(returning: result) }
    }
  }

  /// One outcome per item of `items`: the group's, or, when it failed and may be split, each
  /// item's alone.
  private func commit(_ items: [Item]) async -> [Result<Outcome, Failure>] {
    state.withLock { $0.attempts += 1 }
    do throws(Failure) {
      let outcomes = try await write(items)
      precondition(outcomes.count == items.count, "a group's writer gives one outcome for each item")
      return outcomes.map { .success($0) }
    } catch {
      guard items.count > 1, retriesAlone(error) else { return items.map { _ in .failure(error) } }
      var results: [Result<Outcome, Failure>] = []
      for item in items {
        // Once a failure is not an item's own, the items left would only meet it again.
        if case .failure(let failure) = results.last, !retriesAlone(failure) {
          results.append(.failure(failure))
        } else {
          results += await commit([item])
        }
      }
      return results
    }
  }
}
