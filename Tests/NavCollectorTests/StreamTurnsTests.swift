import NavCore
import NavTestSupport
import PropertyBased
import Testing

@testable import NavCollector

/// Streamed reads take turns at making their pieces: never more than the turns at once, every
/// stream served, in the order they came, and a stream whose client went away stops waiting
/// without holding a turn.
@Suite struct StreamTurnsTests {
  /// Streams of random lengths, each taking a turn for every piece: at no moment do more of
  /// them make a piece than there are turns, and once every stream is done no turn is held and
  /// none waits.
  @Test func neverMoreStreamsAtOnceThanTurnsAndEveryStreamEnds() async {
    await checkProperty(count: 60, input: Gen.int(in: 1...4), Gen.int(in: 1...12).array(of: 1...12)) {
      atOnce, streams in
      let turns = StreamTurns(atOnce: atOnce)
      let making = Protected((now: 0, most: 0))
      let pieces = Protected(0)
      await withTaskGroup(of: Void.self) { group in
        for length in streams {
          group.addTask {
            let turn = StreamTurn(turns)
            for _ in 0..<length {
              guard (try? await turn.take()) != nil else { return }
              making.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
              }
              await Task.yield()
              making.withLock { $0.now -= 1 }
              pieces.withLock { $0 += 1 }
              turn.release()
              await Task.yield()
            }
          }
        }
      }
      #expect(making.withLock { $0.most } <= atOnce)
      #expect(pieces.withLock { $0 } == streams.reduce(0, +))
      #expect(turns.counts == (0, 0))
    }
  }

  /// With every turn taken, streams wait in the order they came, and each turn given back goes
  /// to the one that has waited longest.
  @Test func waitingStreamsAreServedInTheOrderTheyCame() async throws {
    let turns = StreamTurns(atOnce: 1)
    try await turns.take()
    let served = Protected<[Int]>([])
    var waiters: [Task<Void, any Error>] = []
    for index in 0..<4 {
      waiters.append(
        Task {
          try await turns.take()
          served.withLock { $0.append(index) }
          turns.giveBack()
        })
      // Each in line before the next comes.
      try await Self.wait { turns.counts.waiting == index + 1 }
    }
    turns.giveBack()
    for waiter in waiters { try await waiter.value }
    #expect(served.withLock { $0 } == [0, 1, 2, 3])
    #expect(turns.counts == (0, 0))
  }

  /// A stream whose task is cancelled while it waits (its client hung up) throws and leaves the
  /// line, holding no turn; a stream's hold gives its turn back when it is dropped.
  @Test func aCancelledWaiterLeavesTheLineAndADroppedHoldGivesItsTurnBack() async throws {
    let turns = StreamTurns(atOnce: 1)
    var holder: StreamTurn? = StreamTurn(turns)
    try await holder?.take()
    let waiter = Task { try await turns.take() }
    try await Self.wait { turns.counts.waiting == 1 }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
    #expect(turns.counts == (1, 0))
    holder = nil
    #expect(turns.counts == (0, 0))
    #expect(holder == nil)
  }

  /// Waits, in small steps and for a minute at most, until `condition` holds.
  static func wait(until condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let end = clock.now.advanced(by: .seconds(60))
    while !condition() {
      try #require(clock.now < end, "the condition never held")
      try await Task.sleep(for: .milliseconds(1))
    }
  }
}
