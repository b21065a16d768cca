/// Holds an app's navigation the way FlowStacks' routes holder does: the app says where it
/// wants to be, and the player takes the screen there through legal steps, with delays.
///
/// `target` is where the app wants to be; `shown` is what the host displays now. A change
/// that the host can apply at once is shown at once. A larger one (a deep link, a pop to the
/// root through several sheets, a restored session) is planned from `shown` under the host
/// profile and played: steps 0 and 1 immediately, then one step per delay on the clock. A
/// change that arrives while a plan plays cancels it and is planned from the state on screen
/// at that moment, so the screen never jumps.
///
/// Main-actor bound, as the app's navigation state is: `show` runs on the main actor, and
/// every step is decided there, so a superseded plan can never apply a stale step.
///
/// ```swift
/// let player = NavigationPlayer(launchState, host: .navigationStack) { routes = $0 }
/// try player.go(to: restored.state)                 // a restore, step by step
/// try player.changeRoutes { try $0.goBackToRoot() } // one line, as with withDelaysIfUnsupported
/// ```
@MainActor
public final class NavigationPlayer<Screen: NavigationScreen> {
  /// What the host shows now: the last state handed to `show`.
  public private(set) var shown: Coordinator<Screen>
  /// Where the app asked to be; `shown` becomes this once the plan has played.
  public private(set) var target: Coordinator<Screen>
  /// How much one step may do.
  public let host: HostProfile
  /// The time between steps, in milliseconds.
  public let delayMilliseconds: Int

  /// Starts timing a plan on the player's clock; the function it returns sleeps until a step's
  /// time, in milliseconds from that start. (A closure, so the player's type does not name
  /// the clock's.)
  private let startTimer: @Sendable () -> @Sendable (Int) async throws -> Void
  private let show: @MainActor (Coordinator<Screen>) -> Void
  private var playback: Task<Void, Never>?
  private var generation = 0

  /// A player whose host shows `state` now. `show` is called with every state the host must
  /// display, in order, and only when it differs from the one shown; `clock` times the steps (`ContinuousClock` in apps, a test clock in
  /// tests).
  public init<C: Clock<Duration>>(
    _ state: Coordinator<Screen>, host: HostProfile = .default,
    delayMilliseconds: Int = StepPlan<Screen>.defaultDelayMilliseconds, clock: C = ContinuousClock(),
    show: @escaping @MainActor (Coordinator<Screen>) -> Void
  ) {
    self.shown = state
    self.target = state
    self.host = host
    self.delayMilliseconds = delayMilliseconds
    self.startTimer = {
      let start = clock.now
      return { milliseconds in try await clock.sleep(until: start.advanced(by: .milliseconds(milliseconds)), tolerance: nil) }
    }
    self.show = show
  }

  /// Whether a plan is still playing (`shown` is not yet `target`).
  public var isPlaying: Bool { playback != nil }

  /// Takes the screen to `target`: at once when the host can apply it in one update, otherwise
  /// step by step from what is shown now, cancelling any plan still playing. A target no plan
  /// reaches (the top coordinator changing kind, a malformed state) throws and changes nothing.
  public func go(to target: Coordinator<Screen>) throws(PlanError) {
    // Unchanged: a plan under way keeps its times (FlowStacks returns here too).
    guard target != self.target else { return }
    let plan = try Coordinator.plan(from: shown, to: target, host: host)
    playback?.cancel()
    playback = nil
    generation += 1
    self.target = target
    let schedule = plan.scheduled(delayMilliseconds: delayMilliseconds)
    // Steps 0 and 1 are due at once: applied now, in this turn, as FlowStacks does.
    for step in schedule.prefix(while: { $0.atMs == 0 }) { display(step.state) }
    let later = Array(schedule.drop(while: { $0.atMs == 0 }))
    guard !later.isEmpty else { return }
    let mine = generation
    let sleepUntil = startTimer()
    playback = Task { [weak self] in
      await self?.play(later, generation: mine, sleepUntil: sleepUntil)
    }
  }

  /// Applies `change` to the target (as the app would to its routes) and goes there. When the
  /// change throws, nothing changes and the error is rethrown.
  public func change(_ change: (inout Coordinator<Screen>) throws -> Void) throws {
    var next = target
    try change(&next)
    try go(to: next)
  }

  /// Applies `change` to the routes of a stack target, FlowStacks-style:
  /// `try player.changeRoutes { try $0.goBackToRoot() }`. Throws `PlaybackError.notAStack` when
  /// the top coordinator is tabs.
  public func changeRoutes(_ change: (inout [Route<Screen>]) throws -> Void) throws {
    guard var routes = target.routes else { throw PlaybackError.notAStack }
    try change(&routes)
    try go(to: .stack(routes))
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
  private func display(_ state: Coordinator<Screen>) {
    guard state != shown else { return }
    shown = state
    show(state)
  }

  private func play(
    _ steps: [ScheduledStep<Screen>], generation mine: Int, sleepUntil: @Sendable (Int) async throws -> Void
  ) async {
    for step in steps {
      do {
        try await sleepUntil(step.atMs)
      } catch {
        return
      }
      // Decided on the main actor, with no suspension before `display`: a newer `go` has
      // either already replaced this plan, or runs after this step.
      guard !Task.isCancelled, generation == mine else { return }
      display(step.state)
    }
    if generation == mine { playback = nil }
  }
}

/// Why the player refused a change.
public enum PlaybackError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `changeRoutes` was called while the top coordinator is tabs, which have no routes.
  case notAStack

  public var description: String {
    switch self {
    case .notAStack: "the navigation's top coordinator is tabs, not a stack: use change(_:) to edit it"
    }
  }
}
