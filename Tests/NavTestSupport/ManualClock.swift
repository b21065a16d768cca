import NavCore

/// A clock that moves only when the test moves it, for timing the player and the step plans.
///
/// Sleepers wake as soon as `advance` passes their deadline, in deadline order, and
/// `advance(until:)` goes from one sleeper's deadline to the next rather than in fixed steps.
/// Unlike swift-clocks' `TestClock`, a move never waits on detached background-priority tasks,
/// which a loaded two-core machine runs last.
public final class ManualClock: Clock, Sendable {
  /// A point on the manual clock: a duration since it was made.
  public struct Instant: InstantProtocol {
    /// The time since the clock was made.
    public let sinceStart: Duration

    public func advanced(by duration: Duration) -> Instant { Instant(sinceStart: sinceStart + duration) }
    public func duration(to other: Instant) -> Duration { other.sinceStart - sinceStart }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.sinceStart < rhs.sinceStart }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(sinceStart: .zero)
    var sleepers: [Sleeper] = []
    /// Sleepers whose task was cancelled before they were registered.
    var cancelled: Set<Int> = []
    var nextID = 0
  }

  private let state = Protected(State())

  /// A clock at zero.
  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on this clock now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The earliest deadline anyone sleeps until, if anyone sleeps.
  public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

  /// Returns at once for a deadline that has passed; otherwise when `advance` passes it, or
  /// throws `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Bool, CancellationError> = state.withLock { state in
          if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(true) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return .success(false)
        }
        switch outcome {
        case .failure(let error): continuation.resume(throwing: error)
        case .success(true): continuation.resume()
        case .success(false): break
        }
      }
    } onCancel: {
      let sleeper: Sleeper? = state.withLock { state in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelled.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock on by `duration` and wakes, in deadline order, everyone whose deadline it
  /// reached. The woken tasks run on their own executors; this gives them a few turns.
  public func advance(by duration: Duration) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves the clock to `instant` (never back) and wakes everyone whose deadline it reached.
  public func advance(to instant: Instant) async {
    let woken: [Sleeper] = state.withLock { state in
      state.now = max(state.now, instant)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in woken { sleeper.continuation.resume() }
    for _ in 0..<5 { await Task.yield() }
  }

  /// Moves the clock from one sleeper's deadline to the next until `isDone` holds, waiting for a
  /// sleeper whenever none is registered yet. The clock stops exactly at the deadline that
  /// finished the work. It waits on the test's own clock and on the work, never on the wall
  /// clock, so a loaded machine only makes it slower: work that never finishes hangs here, and
  /// CI's watchdog (`.ci/with-exit-watchdog`) fails the run with every thread's backtrace.
  public func advance(isolation: isolated (any Actor)? = #isolation, until isDone: () async -> Bool) async {
    while !(await isDone()) {
      if let next = nextDeadline {
        await advance(to: next)
      } else {
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
  }
}

/// A clock whose sleeps return at once, moving its time to their deadline: for code under test
/// whose delays only need to pass, not be watched.
public final class ImmediateTestClock: Clock, Sendable {
  public typealias Instant = ManualClock.Instant

  private let time = Protected(Instant(sinceStart: .zero))

  /// A clock at zero.
  public init() {}

  public var now: Instant { time.withLock { $0 } }
  public var minimumResolution: Duration { .zero }

  /// Moves the time to `deadline` (never back) and returns, unless the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    time.withLock { $0 = max($0, deadline) }
    await Task.yield()
  }
}
