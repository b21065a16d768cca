import Foundation
import NavFleet
import Synchronization
import Testing

/// Group commit's promises, on a writer that only records what it was given: each item gets its
/// own outcome, groups keep their size and their writers' number, and a group that fails is
/// split only when its failure may belong to one item.
@Suite struct GroupCommitTests {
  /// A failure naming the item that caused it; `shared` ones belong to the whole group.
  struct Failure: Error, Equatable {
    let item: Int
    let shared: Bool
  }

  /// What the writer saw: each group it was given, and the most groups it was writing at once.
  final class Writes: Sendable {
    private struct Seen {
      var groups: [[Int]] = []
      var writing = 0
      var mostAtOnce = 0
      var released = false
    }
    private let seen = Mutex(Seen())

    var groups: [[Int]] { seen.withLock { $0.groups } }
    var mostAtOnce: Int { seen.withLock { $0.mostAtOnce } }

    /// Lets the blocker's write end.
    func release() { seen.withLock { $0.released = true } }

    /// A queue whose groups this records, each taking `milliseconds` to write and failing with
    /// what `failure` says of it; failures not `shared` are tried again item by item.
    func queue(
      writers: Int = 1, unitsPerGroup: Int, milliseconds: Int,
      failure: @escaping @Sendable ([Int]) -> Failure? = { _ in nil }
    ) -> GroupCommit<Int, String, Failure> {
      GroupCommit(writers: writers, unitsPerGroup: unitsPerGroup, retriesAlone: GroupCommitTests.ownFailures) {
        items throws(Failure) in
        try await self.write(items, milliseconds: milliseconds, failure: failure)
      }
    }

    /// Notes `items` as a group being written, for `milliseconds`; fails it with what `failure`
    /// says of it.
    func write(
      _ items: [Int], milliseconds: Int, failure: ([Int]) -> Failure?
    ) async throws(Failure) -> [String] {
      seen.withLock { seen in
        seen.groups.append(items)
        seen.writing += 1
        seen.mostAtOnce = max(seen.mostAtOnce, seen.writing)
      }
      // The blocker's write lasts until the test releases it: whatever is submitted meanwhile
      // waits for the next group.
      if items.contains(GroupCommitTests.blocker) {
        let deadline = ContinuousClock.now + .seconds(60)
        while !seen.withLock({ $0.released }), ContinuousClock.now < deadline {
          try? await Task.sleep(for: .milliseconds(1))
        }
      } else {
        try? await Task.sleep(for: .milliseconds(milliseconds))
      }
      seen.withLock { $0.writing -= 1 }
      if let failure = failure(items) { throw failure }
      return items.map { "stored \($0)" }
    }
  }

  /// Failures that may be one item's, and so are tried again item by item.
  static let ownFailures: @Sendable (Failure) -> Bool = { !$0.shared }

  /// An item whose write lasts until the test releases it.
  static let blocker = 999

  /// Submits `count` items at once, each counted as `units`, behind the blocker, released once
  /// all of them wait (whatever order their tasks started in); every item's result by its
  /// number.
  func submitAtOnce(
    _ count: Int, units: Int = 1, to groups: GroupCommit<Int, String, Failure>, writes: Writes
  ) async -> [Int: Result<String, Failure>] {
    await withTaskGroup(of: (Int, Result<String, Failure>).self) { group in
      group.addTask { (Self.blocker, await groups.submit(Self.blocker, units: units)) }
      let deadline = ContinuousClock.now + .seconds(60)
      while writes.groups.isEmpty, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
      for item in 0..<count { group.addTask { (item, await groups.submit(item, units: units)) } }
      // With more than one writer, some items may be taken at once: wait for the rest.
      while groups.waitingCount + writes.groups.dropFirst().joined().count < count, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
      }
      writes.release()
      var results: [Int: Result<String, Failure>] = [:]
      for await (item, result) in group where item != Self.blocker { results[item] = result }
      return results
    }
  }

  @Test func eachItemGetsItsOwnOutcomeAndWaitingItemsShareGroups() async {
    let writes = Writes()
    let groups = writes.queue(unitsPerGroup: 1_000, milliseconds: 20)
    let results = await submitAtOnce(40, to: groups, writes: writes)
    #expect(results.count == 40)
    for (item, result) in results { #expect((try? result.get()) == "stored \(item)") }
    // Every item written exactly once, and the ones that waited went together.
    #expect(writes.groups.first == [Self.blocker])
    #expect(writes.groups.dropFirst().joined().sorted() == Array(0..<40))
    // The 40 waited behind the blocker: one group took them all.
    #expect(writes.groups.count == 2, "\(writes.groups.count) groups for 40 items sent at once")
    #expect(groups.attempts == writes.groups.count)
    // Idle again, the queue takes the next items as it took the first.
    let later = await withTaskGroup(of: String?.self) { group in
      for item in 100..<110 { group.addTask { try? await groups.submit(item, units: 1).get() } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(later) == Set((100..<110).map { "stored \($0)" }))
  }

  @Test(arguments: [1, 3])
  func noGroupPassesItsUnitsAndNoMoreWritersRunThanAllowed(writers: Int) async {
    let writes = Writes()
    let groups = writes.queue(writers: writers, unitsPerGroup: 50, milliseconds: 10)
    let results = await submitAtOnce(60, units: 20, to: groups, writes: writes)
    #expect(results.values.allSatisfy { (try? $0.get()) != nil })
    // 20 units an item, 50 a group: two items at most in any group.
    #expect(writes.groups.allSatisfy { !$0.isEmpty && $0.count <= 2 }, "\(writes.groups)")
    #expect(writes.groups.dropFirst().joined().sorted() == Array(0..<60))
    #expect(writes.mostAtOnce <= writers && writes.mostAtOnce >= 1)
    if writers > 1 { #expect(writes.mostAtOnce > 1, "60 items waiting, yet one group at a time") }
  }

  @Test func anItemTooLargeForAGroupIsWrittenAlone() async {
    let writes = Writes()
    let groups = writes.queue(unitsPerGroup: 10, milliseconds: 1)
    #expect((try? await groups.submit(7, units: 500).get()) == "stored 7")
    #expect(writes.groups == [[7]])
  }

  /// A group failing by one item's fault is written again item by item: only that item fails.
  @Test func aFailureOfOneItemIsItsAlone() async {
    let writes = Writes()
    let groups = writes.queue(unitsPerGroup: 1_000, milliseconds: 20) {
      $0.contains(5) ? Failure(item: 5, shared: false) : nil
    }
    let results = await submitAtOnce(30, to: groups, writes: writes)
    for (item, result) in results {
      if item == 5 {
        #expect(throws: Failure(item: 5, shared: false)) { try result.get() }
      } else {
        #expect((try? result.get()) == "stored \(item)", "item \(item)")
      }
    }
    // The 30 waited behind the blocker and went in one group, which failed; each of them was
    // then written alone, in their order.
    #expect(writes.groups.count == 2 + 30, "\(writes.groups)")
    let whole = writes.groups.count > 1 ? writes.groups[1] : []
    #expect(whole.sorted() == Array(0..<30))
    #expect(Array(writes.groups.dropFirst(2)) == whole.map { [$0] })
  }

  /// A failure that is the group's (a database out of reach) fails every item of it at once:
  /// none waits for a try of its own.
  @Test func aFailureOfTheWholeGroupIsNotTriedItemByItem() async {
    let writes = Writes()
    let groups = writes.queue(unitsPerGroup: 1_000, milliseconds: 20) {
      $0.contains(5) ? Failure(item: 5, shared: true) : nil
    }
    let results = await submitAtOnce(30, to: groups, writes: writes)
    // The 30 waited behind the blocker and went in one group; its failure was theirs, once.
    #expect(writes.groups.count == 2, "\(writes.groups)")
    for result in results.values { #expect(throws: Failure(item: 5, shared: true)) { try result.get() } }
    #expect(results.count == 30 && groups.attempts == 2)
  }

  /// Items written one by one after their group failed stop being tried once a failure is not
  /// an item's own: the items left fail with it, unwritten.
  @Test func aFailureOfTheWholeGroupDuringTheRetriesEndsThem() async {
    let writes = Writes()
    // Item 5 fails any group it is in as its own fault; alone, as the database's.
    let groups = writes.queue(unitsPerGroup: 1_000, milliseconds: 1) {
      $0.contains(5) ? Failure(item: 5, shared: $0.count == 1) : nil
    }
    let results = await submitAtOnce(30, to: groups, writes: writes)
    let whole = writes.groups.count > 1 ? writes.groups[1] : []
    #expect(whole.sorted() == Array(0..<30), "\(writes.groups)")
    let before = Array(whole.prefix { $0 != 5 })
    // Tried alone: the items before 5, then 5; none after it.
    #expect(Array(writes.groups.dropFirst(2)) == (before + [5]).map { [$0] })
    for (item, result) in results {
      if before.contains(item) {
        #expect((try? result.get()) == "stored \(item)", "item \(item)")
      } else {
        #expect(throws: Failure(item: 5, shared: true)) { try result.get() }
      }
    }
  }
}
