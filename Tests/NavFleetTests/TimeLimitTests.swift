import NIOCore
import NavFleet
import Synchronization
import Testing

/// Work bounded in time answers within its deadline, and work that answers first leaves no
/// timer behind it: the timer is cancelled (and so taken out of its loop) before the caller
/// has the answer.
@Suite(.timeLimit(.minutes(2)))
struct TimeLimitTests {
  /// The timers a run of calls scheduled, counted as they are cancelled.
  final class Timers: Sendable {
    private let cancellations = Mutex(0)
    func keep(_ timer: Scheduled<Void>) {
      timer.futureResult.whenFailure { [self] error in
        if case EventLoopError.cancelled = error { self.cancellations.withLock { $0 += 1 } }
      }
    }

    /// How many were cancelled, once `expected` were or ten seconds have passed.
    func cancelled(expecting expected: Int) async throws -> Int {
      try await TimeLimitTests.wait(atMost: .seconds(10)) { self.cancellations.withLock { $0 } >= expected }
      return cancellations.withLock { $0 }
    }
  }

  /// Work that sleeps for a minute unless cancelled, and says whether it was: work a deadline
  /// failed to cancel fails its test rather than holding the run.
  final class Sleeper: Sendable {
    private let cancelled = Mutex(false)
    var wasCancelled: Bool { cancelled.withLock { $0 } }

    @Sendable func work() async throws -> Int {
      do {
        try await Task.sleep(for: .seconds(60))
      } catch {
        cancelled.withLock { $0 = true }
        throw error
      }
      return 1
    }

    /// Waits (a minute at most) for work left to end by itself to be cancelled.
    func waitForTheCancellation() async throws {
      try await TimeLimitTests.wait(atMost: .seconds(60)) { self.wasCancelled }
    }
  }

  /// Returns once `isDone`, or once `limit` has passed, looking every 10 ms.
  static func wait(atMost limit: Duration, until isDone: () -> Bool) async throws {
    let waited = ContinuousClock.now
    while !isDone(), ContinuousClock.now - waited < limit { try await Task.sleep(for: .milliseconds(10)) }
  }

  @Test(arguments: [false, true])
  func anAnswerBeforeTheDeadlineIsReturnedAndItsTimerCancelled(waitsForTheWork: Bool) async throws {
    let timers = Timers()
    for number in 0..<50 {
      let answer =
        waitsForTheWork
        ? try await TimeLimit.run(within: .seconds(3600), watch: timers.keep) { number * 2 }
        : try await TimeLimit.answer(within: .seconds(3600), watch: timers.keep) { number * 2 }
      #expect(answer == number * 2)
    }
    #expect(try await timers.cancelled(expecting: 50) == 50)
  }

  @Test(arguments: [false, true])
  func aFailureBeforeTheDeadlineIsThrownAsItIs(waitsForTheWork: Bool) async throws {
    struct Refused: Error {}
    let timers = Timers()
    await #expect(throws: Refused.self) {
      let work: @Sendable () async throws -> Int = { throw Refused() }
      _ =
        waitsForTheWork
        ? try await TimeLimit.run(within: .seconds(3600), watch: timers.keep, work)
        : try await TimeLimit.answer(within: .seconds(3600), watch: timers.keep, work)
    }
    #expect(try await timers.cancelled(expecting: 1) == 1)
  }

  @Test func workPastTheDeadlineIsAnsweredWithExpiredAndCancelled() async throws {
    let sleeper = Sleeper()
    await #expect(throws: TimeLimit.Expired.self) {
      try await TimeLimit.answer(within: .milliseconds(100), sleeper.work)
    }
    // Left to end by itself: it is cancelled, and ends soon after.
    try await sleeper.waitForTheCancellation()
    #expect(sleeper.wasCancelled)
  }

  @Test func workRunPastTheDeadlineHasEndedWhenExpiredIsThrown() async throws {
    let sleeper = Sleeper()
    await #expect(throws: TimeLimit.Expired.self) {
      try await TimeLimit.run(within: .milliseconds(100), sleeper.work)
    }
    // Waited for: nothing of it outlives the call.
    #expect(sleeper.wasCancelled)
  }

  @Test(arguments: [false, true])
  func aCancelledCallerCancelsItsWork(waitsForTheWork: Bool) async throws {
    let sleeper = Sleeper()
    let started = ContinuousClock.now
    let caller = Task {
      waitsForTheWork
        ? try await TimeLimit.run(within: .seconds(30), sleeper.work)
        : try await TimeLimit.answer(within: .seconds(30), sleeper.work)
    }
    try await Task.sleep(for: .milliseconds(50))
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    // Well before the deadline (30 s): the caller's cancellation ended it, not the timer.
    #expect(ContinuousClock.now - started < .seconds(20))
    try await sleeper.waitForTheCancellation()
    #expect(sleeper.wasCancelled)
  }
}
