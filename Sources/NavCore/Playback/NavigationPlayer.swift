/// Holds an app's navigation the way FlowStacks' routes holder does: the app says where it
/// wants to be, and the player takes the screen there through legal steps, with delays.
///
/// A change the host can apply in one update is shown at once; a larger one is planned from what
/// is shown and played on the clock; a change that arrives mid-plan replans from the screen, so
/// it never jumps. Main-actor bound, as the app's navigation state is. <doc:PlayingSteps> tells
/// the timing rules and how the player differs from FlowStacks.
///
/// ```swift
/// let player = NavigationPlayer(launchState, host: .navigationStack17) { routes = $0 }
/// try player.go(to: restored.state)                 // a restore, step by step
/// try player.changeRoutes { try $0.goBackToRoot() } // one line, as with withDelaysIfUnsupported
/// ```
@MainActor
public final class NavigationPlayer<AppScreen: NavigationScreen> {
  /// What the host shows now: the last state handed to `show`.
  public private(set) var shown: Coordinator<AppScreen>
  /// Where the app asked to be; `shown` becomes this once the plan has played.
  public private(set) var target: Coordinator<AppScreen>
  /// How much one step may do.
  package let host: HostProfile
  /// The time between steps, in milliseconds.
  package let delayMilliseconds: Int

  private let clock: PlayerClock
  private let show: @MainActor (Coordinator<AppScreen>) -> Void
  private var playback: Task<Void, Never>?
  /// Bumped by every `go`: a plan (or a `go` interrupted by a re-entrant one) whose number is
  /// no longer current shows nothing more.
  private var generation = 0
  /// When the last structural step was shown, in milliseconds on the player's clock.
  private var lastStepAt: Int?

  /// A player whose host shows `state` now. `show` is called with every state the host must
  /// display, in order, and only when it differs from the one shown; `clock` times the steps
  /// (`ContinuousClock` in apps, a test clock in tests).
  public init<C: Clock<Duration>>(
    _ state: Coordinator<AppScreen>, host: HostProfile = .default,
    delayMilliseconds: Int = StepPlan<AppScreen>.defaultDelayMilliseconds, clock: C = ContinuousClock(),
    show: @escaping @MainActor (Coordinator<AppScreen>) -> Void
  ) {
    self.shown = state
    self.target = state
    self.host = host
    self.delayMilliseconds = max(0, delayMilliseconds)
    self.clock = PlayerClock(clock)
    self.show = show
  }

  /// Whether a plan is still playing (`shown` is not yet `target`).
  public var isPlaying: Bool { playback != nil }

  /// Takes the screen to `target`: at once when the host can apply it in one update, otherwise
  /// step by step from what is shown now, cancelling any plan still playing. A target no plan
  /// reaches (the top coordinator changing kind, a malformed state) throws and changes nothing.
  ///
  /// When a plan is interrupted, the new plan's first structural step waits until a full delay
  /// after the last one shown, so the host never gets two transitions closer than the delay.
  public func go(to target: Coordinator<AppScreen>) throws(PlanError) {
    // Unchanged: a plan under way keeps its times (FlowStacks returns here too).
    guard target != self.target else { return }
    let plan = try Coordinator.plan(from: shown, to: target, host: host)
    let interrupted = playback != nil
    playback?.cancel()
    playback = nil
    generation += 1
    let mine = generation
    self.target = target
    let now = clock.elapsedMilliseconds()
    let firstStepAt = interrupted ? max(now, (lastStepAt ?? now) + delayMilliseconds) : now
    // Step 0 only changes contents: shown at once. Step k ≥ 1 at its time from `firstStepAt`.
    var due: [(at: Int, state: Coordinator<AppScreen>, isStructural: Bool)] = []
    for step in plan.scheduled(delayMilliseconds: delayMilliseconds) {
      due.append((step.step == 0 ? now : Self.adding(firstStepAt, step.atMs), step.state, step.step > 0))
    }
    // What is due now is shown now, in this turn, as FlowStacks shows steps 0 and 1.
    while let next = due.first, next.at <= now {
      due.removeFirst()
      display(next.state, isStructural: next.isStructural)
      // `show` may have called `go` again: that newer call owns the screen now.
      guard generation == mine else { return }
    }
    guard !due.isEmpty else { return }
    let clock = self.clock
    playback = Task { [weak self] in
      for step in due {
        do {
          try await clock.sleep(untilMilliseconds: step.at)
        } catch {
          return
        }
        // Decided on the main actor, with no suspension before `display`: a newer `go` has
        // either already replaced this plan, or runs after this step. The player is held only
        // for the step, so one the app has let go of stops here.
        guard let self, !Task.isCancelled, self.generation == mine else { return }
        self.display(step.state, isStructural: step.isStructural)
      }
      guard let self, self.generation == mine else { return }
      self.playback = nil
    }
  }

  /// Applies `change` to the target (as the app would to its routes) and goes there. When the
  /// change throws, nothing changes and the error is rethrown.
  public func change(_ change: (inout Coordinator<AppScreen>) throws -> Void) throws {
    var next = target
    try change(&next)
    try go(to: next)
  }

  /// Applies `change` to the routes of a stack target, FlowStacks-style:
  /// `try player.changeRoutes { try $0.goBackToRoot() }`. Throws `PlaybackError.notAStack` when
  /// the top coordinator is tabs.
  public func changeRoutes(_ change: (inout [Route<AppScreen>]) throws -> Void) throws {
    guard var routes = target.routes else { throw PlaybackError.notAStack }
    try change(&routes)
    try go(to: .stack(routes))
  }

  /// Takes note that the host already shows `state`, changed by the user (a back swipe, a
  /// sheet pulled down, a tab tapped): any plan still playing stops, and `state` becomes both
  /// what is shown and the target, without calling `show` (the host is there already).
  package func adopt(_ state: Coordinator<AppScreen>) {
    playback?.cancel()
    playback = nil
    generation += 1
    shown = state
    target = state
  }

  /// Returns once no plan is playing: the target is shown, or the plan was superseded by one
  /// that has finished in turn.
  public func settled() async {
    while let running = playback {
      await running.value
      if playback == running { playback = nil }
    }
  }

  /// Hands `state` to the host, unless the host shows it already (a plan's step 0 often
  /// changes nothing): every call of `show` is a real change.
  private func display(_ state: Coordinator<AppScreen>, isStructural: Bool) {
    guard state != shown else { return }
    shown = state
    if isStructural { lastStepAt = clock.elapsedMilliseconds() }
    show(state)
  }

  private static func adding(_ time: Int, _ offset: Int) -> Int {
    let (sum, overflow) = time.addingReportingOverflow(offset)
    return overflow ? Int.max : sum
  }
}

/// The player's clock, in whole milliseconds since the player was made, so the player's type
/// does not name the clock's.
private struct PlayerClock: Sendable {
  let elapsedMilliseconds: @Sendable () -> Int
  let sleepUntil: @Sendable (Int) async throws -> Void

  init<C: Clock<Duration>>(_ clock: C) {
    let epoch = clock.now
    elapsedMilliseconds = {
      let elapsed = epoch.duration(to: clock.now).components
      return Int(clamping: elapsed.seconds) &* 1000 &+ Int(elapsed.attoseconds / 1_000_000_000_000_000)
    }
    sleepUntil = { milliseconds in
      try await clock.sleep(until: epoch.advanced(by: .milliseconds(milliseconds)), tolerance: nil)
    }
  }

  func sleep(untilMilliseconds milliseconds: Int) async throws {
    try await sleepUntil(milliseconds)
  }
}
