import NavCore
import NavTestSupport
import Testing

/// `StepPlan.play` and `timed` on a test clock: each step is applied exactly at its time, in
/// order and never before; cancellation stops the plan between steps; a `@MainActor` apply works.
@Suite struct StepPlayerTests {
  /// FlowStacks' E1 deep link with the root at index 0: six steps at 0, 0, 650, 1300, 1950, 2600 ms.
  static let launch = AnyCoordinator.stack(stack("R+home"))
  static let deepLink = AnyCoordinator.stack(stack("R+home", "↑a", "↑b", "◻+c", "↑d", "↑e"))

  static func plan() throws -> StepPlan<JSONValue> {
    try AnyCoordinator.plan(from: launch, to: deepLink, host: .navigationView)
  }

  @Test func eachStepIsAppliedAtItsTimeAndNotBefore() async throws {
    let plan = try Self.plan()
    let schedule = plan.scheduled()
    #expect(schedule.map(\.atMs) == [0, 0, 650, 1300, 1950, 2600])
    let clock = ManualClock()
    let log = PlaybackLog(clock: clock)
    let playing = Task { try await plan.play(clock: clock) { log.record($0) } }

    // Steps 0 and 1 at once, before the clock moves at all.
    #expect(await log.waitFor(count: 2))
    for step in schedule.dropFirst(2) {
      let due = log.count
      // A millisecond early: nothing new.
      await clock.advance(by: .milliseconds(step.atMs - (log.all.last?.atMs ?? 0) - 1))
      await PlaybackLog.settle()
      #expect(log.count == due, "step \(step.step) was applied before \(step.atMs) ms")
      // On time: exactly this step.
      await clock.advance(by: .milliseconds(1))
      #expect(await log.waitFor(count: due + 1))
    }
    try await playing.value
    #expect(log.all == schedule.map { PlaybackLog.Entry(atMs: $0.atMs, state: $0.state) })
    #expect(log.all.last?.state == Self.deepLink)
  }

  @Test func cancellationStopsThePlanBetweenSteps() async throws {
    let plan = try Self.plan()
    let clock = ManualClock()
    let log = PlaybackLog(clock: clock)
    let playing = Task { try await plan.play(clock: clock) { log.record($0) } }
    #expect(await log.waitFor(count: 2))
    await clock.advance(by: .milliseconds(650))
    #expect(await log.waitFor(count: 3))
    playing.cancel()
    await clock.advance(by: .seconds(10))
    await #expect(throws: CancellationError.self) { try await playing.value }
    // The steps already applied stay applied; no later one is.
    #expect(log.all.map(\.state) == Array(plan.steps.prefix(3)))
  }

  @Test func aCancelledTaskAppliesNothing() async throws {
    let plan = try Self.plan()
    let clock = ManualClock()
    let log = PlaybackLog(clock: clock)
    let playing = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await plan.play(clock: clock) { log.record($0) }
    }
    await #expect(throws: CancellationError.self) { try await playing.value }
    #expect(log.count == 0)
  }

  @MainActor @Test func aMainActorApplySetsTheAppsState() async throws {
    var routes = Self.launch
    var applied = 0
    let clock = ManualClock()
    let playing = Task { @MainActor in
      try await Self.launch.play(to: Self.deepLink, clock: clock) { state in
        MainActor.assertIsolated()
        routes = state
        applied += 1
      }
    }
    await clock.advance(until: { applied == 6 })
    try await playing.value
    #expect(routes == Self.deepLink)
    #expect(applied == 6)
  }

  @Test func anIsolatedMainActorClosureWorksFromAnywhere() async throws {
    let clock = ManualClock()
    let model = await RoutesModel(Self.launch)
    let playing = Task.detached {
      try await Self.plan().play(clock: clock) { @MainActor state in model.routes = state }
    }
    await clock.advance(until: { await model.routes == Self.deepLink })
    try await playing.value
  }

  @Test func anErrorFromApplyStopsThePlan() async throws {
    struct Refused: Error {}
    let clock = ManualClock()
    var calls = 0
    await #expect(throws: Refused.self) {
      try await Self.plan().play(clock: clock) { _ in
        calls += 1
        if calls == 2 { throw Refused() }
      }
    }
    #expect(calls == 2)
  }

  @Test func timedStepsArriveOnSchedule() async throws {
    let plan = try Self.plan()
    let clock = ManualClock()
    let log = PlaybackLog(clock: clock)
    let consuming = Task {
      var steps: [ScheduledStep<JSONValue>] = []
      for try await step in plan.timed(delayMilliseconds: 100, clock: clock) {
        log.record(step.state)
        steps.append(step)
      }
      return steps
    }
    #expect(await log.waitFor(count: 2))
    // Each step is waited for before the clock moves on, so its time is read exactly.
    for due in 3...plan.steps.count {
      await clock.advance(by: .milliseconds(99))
      await PlaybackLog.settle()
      #expect(log.count == due - 1, "step \(due - 1) arrived early")
      await clock.advance(by: .milliseconds(1))
      #expect(await log.waitFor(count: due))
    }
    #expect(try await consuming.value == plan.scheduled(delayMilliseconds: 100))
    #expect(log.all.map(\.atMs) == [0, 0, 100, 200, 300, 400])
  }

  @Test func anImpossibleTargetThrowsBeforeApplyingAnything() async {
    let clock = ManualClock()
    var applied = 0
    await #expect(throws: PlanError.self) {
      try await Self.launch.play(to: .tabs([Self.launch], selected: 0), clock: clock) { _ in applied += 1 }
    }
    #expect(applied == 0)
  }
}

/// An app's navigation state, owned by the main actor.
@MainActor final class RoutesModel {
  var routes: AnyCoordinator
  init(_ routes: AnyCoordinator) { self.routes = routes }
}
