import Synchronization
import Testing

@testable import NavFleet

/// Every call to the database is answered within its deadline, and a call answered first
/// leaves no timer sleeping behind it.
struct DatabaseDeadlineTests {
  /// The continuous clock, counting the sleeps that were cancelled.
  final class WatchedClock: Clock, Sendable {
    let cancelledSleeps = Mutex(0)
    var now: ContinuousClock.Instant { ContinuousClock.now }
    var minimumResolution: Duration { ContinuousClock().minimumResolution }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
      do {
        try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
      } catch {
        cancelledSleeps.withLock { $0 += 1 }
        throw error
      }
    }
  }

  @Test func anAnswerBeforeTheDeadlineIsReturnedAndItsTimerCancelled() async throws {
    let clock = WatchedClock()
    for number in 0..<50 {
      let answer = try await PostgresFleet.answer(within: .seconds(3600), clock: clock) { number * 2 }
      #expect(answer == number * 2)
    }
    // The timers end as soon as they are cancelled; give their tasks a moment to run.
    let waited = ContinuousClock.now
    while clock.cancelledSleeps.withLock({ $0 }) < 50, ContinuousClock.now - waited < .seconds(60) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(clock.cancelledSleeps.withLock { $0 } == 50)
  }

  @Test func aFailureBeforeTheDeadlineIsThrownAsItIs() async throws {
    struct Refused: Error {}
    await #expect(throws: Refused.self) {
      try await PostgresFleet.answer(within: .seconds(3600)) { () async throws -> Int in throw Refused() }
    }
  }

  @Test func workPastTheDeadlineIsAnsweredWithATimeoutAndCancelled() async throws {
    let cancelled = Mutex(false)
    await #expect(throws: DatabaseTimeout.self) {
      try await PostgresFleet.answer(within: .milliseconds(100)) { () async throws -> Int in
        do {
          try await Task.sleep(for: .seconds(3600))
        } catch {
          cancelled.withLock { $0 = true }
          throw error
        }
        return 1
      }
    }
    let waited = ContinuousClock.now
    while !cancelled.withLock({ $0 }), ContinuousClock.now - waited < .seconds(60) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(cancelled.withLock { $0 })
  }
}
