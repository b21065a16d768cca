/// A plan's steps delivered at their times on a clock, as an `AsyncSequence`.
///
/// For reducer-based apps, whose navigation changes only through actions: an effect iterates
/// the sequence and sends each step's state as an action (the way TCACoordinators'
/// `routeWithDelaysIfUnsupported` sends `updateRoutes`). Steps 0 and 1 arrive at once, step k
/// (k − 1) × delay after iteration began. Deadlines are measured from the first `next()`, not
/// from the previous step, so a slow consumer does not push the later steps back.
///
/// Cancelling the iterating task ends the sequence with `CancellationError` before the next step.
public struct TimedSteps<AppScreen: NavigationScreen, C: Clock>: AsyncSequence, Sendable where C.Duration == Duration {
  /// Each step with its time, handed over when it is due.
  public typealias Element = ScheduledStep<AppScreen>

  /// The steps with their times, in order.
  package let schedule: [ScheduledStep<AppScreen>]
  /// The clock the times are kept on.
  package let clock: C

  /// Steps delivered on `clock` at the times of `schedule`.
  package init(schedule: [ScheduledStep<AppScreen>], clock: C) {
    self.schedule = schedule
    self.clock = clock
  }

  /// Starts the schedule: its times count from the iterator's first `next()`.
  public func makeAsyncIterator() -> Iterator {
    Iterator(schedule: schedule, clock: clock)
  }

  /// Sleeps until each step is due, then hands it over.
  public struct Iterator: AsyncIteratorProtocol {
    let schedule: [ScheduledStep<AppScreen>]
    let clock: C
    var start: C.Instant?
    var position = 0

    /// The next step once it is due, or `nil` after the last; throws `CancellationError` when
    /// the task is cancelled before the step is handed over.
    public mutating func next() async throws -> ScheduledStep<AppScreen>? {
      guard position < schedule.count else { return nil }
      let step = schedule[position]
      let start = self.start ?? clock.now
      self.start = start
      if step.atMs > 0 {
        try await clock.sleep(until: start.advanced(by: .milliseconds(step.atMs)), tolerance: nil)
      }
      try Task.checkCancellation()
      position += 1
      return step
    }
  }
}

extension StepPlan {
  /// The steps delivered at their times on `clock` (see `TimedSteps`).
  public func timed<C: Clock>(delayMilliseconds: Int = defaultDelayMilliseconds, clock: C) -> TimedSteps<AppScreen, C>
  where C.Duration == Duration {
    TimedSteps(schedule: scheduled(delayMilliseconds: delayMilliseconds), clock: clock)
  }

  /// Plays the plan: calls `apply` with each step's state at its time on `clock` (steps 0 and 1
  /// at once, step k at (k − 1) × delay), the counterpart of FlowStacks'
  /// `withDelaysIfUnsupported` for one plan.
  ///
  /// `apply` runs in the caller's isolation, so from the main actor it may set the app's routes
  /// directly; a `@MainActor` closure works from anywhere. Cancelling the task stops the plan
  /// before its next step and throws `CancellationError`; the steps already applied stay
  /// applied. An error thrown by `apply` stops the plan too, and is rethrown.
  public func play<C: Clock>(
    delayMilliseconds: Int = defaultDelayMilliseconds, clock: C, isolation: isolated (any Actor)? = #isolation,
    apply: (Coordinator<AppScreen>) async throws -> Void
  ) async throws where C.Duration == Duration {
    var steps = timed(delayMilliseconds: delayMilliseconds, clock: clock).makeAsyncIterator()
    while let step = try await steps.next() {
      try await apply(step.state)
    }
  }
}

extension Coordinator {
  /// Plans the way from this state to `target` under `host` and plays it into `apply`: one line
  /// for a deep link or a restore (`try await shown.play(to: link, clock: clock) { routes = $0 }`).
  /// See `StepPlan.play` for timing and cancellation; a target the plan cannot reach (the top
  /// coordinator changing kind, a malformed state) throws `PlanError` before anything is applied.
  public func play<C: Clock>(
    to target: Coordinator, host: HostProfile = .default,
    delayMilliseconds: Int = StepPlan<AppScreen>.defaultDelayMilliseconds,
    clock: C, isolation: isolated (any Actor)? = #isolation, apply: (Coordinator) async throws -> Void
  ) async throws where C.Duration == Duration {
    let plan = try Coordinator.plan(from: self, to: target, host: host)
    try await plan.play(delayMilliseconds: delayMilliseconds, clock: clock, apply: apply)
  }
}
