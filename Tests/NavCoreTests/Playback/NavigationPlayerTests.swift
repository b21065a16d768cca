import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// The routes holder: changes the host can apply at once are shown at once, larger ones play
/// step by step, and a change during a plan replans from what is on screen, so the screen
/// never jumps.
@MainActor @Suite struct NavigationPlayerTests {
  static let launch = AnyCoordinator.stack(stack("R+home"))
  static let deepLink = AnyCoordinator.stack(stack("R+home", "↑a", "↑b", "◻+c", "↑d", "↑e"))

  final class Screen {
    var shown: [AnyCoordinator] = []
  }

  /// Waits for the player's task to catch up with the clock: on the work, not on the wall clock
  /// (a hang is CI's watchdog's to report, with every thread's backtrace).
  func waitUntil(_ condition: () -> Bool) async {
    while !condition() { try? await Task.sleep(for: .milliseconds(1)) }
  }

  @Test func aChangeTheHostCanApplyAtOnceIsShownAtOnce() throws {
    let screen = Screen()
    let player = NavigationPlayer(Self.launch, clock: ManualClock()) { screen.shown.append($0) }
    try player.changeRoutes { try $0.push("a") }
    #expect(player.shown == .stack(stack("R+home", "↑a")))
    #expect(player.target == player.shown)
    #expect(!player.isPlaying)
    #expect(screen.shown.last == player.shown)
  }

  @Test func aDeepLinkPlaysStepByStep() async throws {
    let clock = ManualClock()
    let screen = Screen()
    let player = NavigationPlayer(Self.launch, clock: clock) { screen.shown.append($0) }
    try player.go(to: Self.deepLink)
    let plan = try AnyCoordinator.plan(from: Self.launch, to: Self.deepLink)
    // Steps 0 and 1 in the same turn as the call; step 0 changes nothing here, so the host
    // is not asked to show it.
    #expect(plan.steps[0] == Self.launch)
    #expect(screen.shown == [plan.steps[1]])
    #expect(player.isPlaying)
    #expect(player.target == Self.deepLink)
    await clock.advance(by: .milliseconds(649))
    #expect(screen.shown.count == 1)
    await clock.advance(by: .milliseconds(1))
    await waitUntil { screen.shown.count == 2 }
    #expect(screen.shown == Array(plan.steps[1...2]))
    // The same target again changes nothing: the plan keeps its times.
    try player.go(to: Self.deepLink)
    #expect(screen.shown.count == 2)
    await clock.advance(by: .milliseconds(649))
    #expect(screen.shown.count == 2)
    await clock.advance(by: .milliseconds(1))
    await waitUntil { screen.shown.count == 3 }
    await clock.advance(until: { !player.isPlaying })
    await player.settled()
    #expect(screen.shown == Array(plan.steps.dropFirst()))
    #expect(player.shown == Self.deepLink)
    #expect(!player.isPlaying)
  }

  @Test func aChangeDuringAPlanReplansFromWhatIsShown() async throws {
    let clock = ManualClock()
    let screen = Screen()
    let player = NavigationPlayer(Self.launch, clock: clock) { screen.shown.append($0) }
    try player.go(to: Self.deepLink)
    await clock.advance(by: .milliseconds(650))
    await waitUntil { screen.shown.count == 2 }
    let midway = player.shown
    #expect(midway == .stack(stack("R+home", "↑a", "↑b")))
    // Back to the root while the deep link is still being built. The host showed a step at
    // 650 ms, so the pop waits until 1300 ms: never two transitions closer than the delay.
    try player.changeRoutes { try $0.goBackToRoot() }
    #expect(player.target == Self.launch)
    #expect(player.shown == midway)
    await clock.advance(by: .milliseconds(649))
    await PlaybackLog.settle()
    #expect(player.shown == midway)
    await clock.advance(by: .milliseconds(1))
    await waitUntil { player.shown == Self.launch }
    await clock.advance(until: { !player.isPlaying })
    await player.settled()
    #expect(player.shown == Self.launch)
    // Nothing of the first plan was shown after the change: the sheet never appeared.
    #expect(!screen.shown.contains { $0.routes?.count ?? 0 > 3 })
    for (before, after) in zip(screen.shown, screen.shown.dropFirst()) {
      #expect(AnyCoordinator.isLegalTransition(from: before, to: after), "jumped from \(before) to \(after)")
    }
  }

  @Test func aChangeWhenIdleIsShownAtOnceEvenRightAfterAPlan() async throws {
    let clock = ManualClock()
    let screen = Screen()
    let player = NavigationPlayer(Self.launch, delayMilliseconds: 100, clock: clock) { screen.shown.append($0) }
    try player.go(to: .stack(stack("R+home", "↑a", "◻b")))
    await clock.advance(until: { !player.isPlaying })
    // The plan is over: a user's change (say a swipe the host already shows) is not held back.
    try player.changeRoutes { try $0.dismiss() }
    #expect(player.shown == .stack(stack("R+home", "↑a")))
  }

  /// An observer of the app's model that navigates elsewhere as soon as the first screen
  /// appears calls `go` from inside `show`: the inner call owns the screen from then on.
  @Test func aShowThatChangesTheTargetAgainWins() async throws {
    let clock = ManualClock()
    let host = Screen()
    let detour = AnyCoordinator.stack(stack("R+home", "◻+elsewhere"))
    var player: NavigationPlayer<JSONValue>?
    player = NavigationPlayer(Self.launch, clock: clock) { state in
      host.shown.append(state)
      if host.shown.count == 1 { try? player?.go(to: detour) }
    }
    try player?.go(to: .stack(stack("R+home", "↑a", "↑b", "↑c")))
    await clock.advance(until: { player?.isPlaying == false })
    #expect(player?.target == detour)
    #expect(player?.shown == detour)
    // Only the first step of the outer plan was shown; nothing of it after the detour began.
    #expect(host.shown.first == .stack(stack("R+home", "↑a")))
    #expect(!host.shown.dropFirst().contains { $0.routes?.contains(where: { $0.screen == "c" }) == true })
    #expect(host.shown.last == detour)
  }

  @Test func aPlayerTheAppLetsGoOfStopsShowing() async throws {
    let clock = ManualClock()
    let screen = Screen()
    var player: NavigationPlayer<JSONValue>? = NavigationPlayer(Self.launch, clock: clock) { screen.shown.append($0) }
    try player?.go(to: Self.deepLink)
    #expect(screen.shown.count == 1)
    player = nil
    await clock.advance(by: .seconds(5))
    await PlaybackLog.settle()
    #expect(screen.shown.count == 1)
  }

  @Test func aRefusedChangeChangesNothing() throws {
    let screen = Screen()
    let player = NavigationPlayer(Self.deepLink, clock: ManualClock()) { screen.shown.append($0) }
    #expect(throws: NavigationError.self) { try player.changeRoutes { try $0.pop(3) } }
    #expect(player.target == Self.deepLink)
    #expect(screen.shown.isEmpty)
    let tabs = NavigationPlayer(AnyCoordinator.tabs([Self.launch], selected: 0), clock: ManualClock()) { _ in }
    #expect(throws: PlaybackError.notAStack) { try tabs.changeRoutes { try $0.goBackToRoot() } }
    #expect(throws: PlanError.self) { try player.go(to: .tabs([Self.launch], selected: 0)) }
    #expect(player.target == Self.deepLink)
  }

  @Test func changeEditsTheWholeTree() async throws {
    let clock = ManualClock()
    let tabs = AnyCoordinator.tabs([Self.launch, .stack(stack("R+settings"))], selected: 0)
    let player = NavigationPlayer(tabs, clock: clock) { _ in }
    try player.change { try $0.apply(.push("profile", at: [.tab(1)])) }
    try player.change { try $0.apply(.selectTab(1)) }
    await clock.advance(until: { !player.isPlaying })
    await player.settled()
    #expect(player.shown == .tabs([Self.launch, .stack(stack("R+settings", "↑profile"))], selected: 1))
  }

  /// Random targets arriving at random moments, under every profile: every state the screen
  /// shows is one legal step from the one before, and once the clock runs out the last target
  /// is shown.
  @Test func theScreenNeverJumps() async {
    let scenario = Generator<
      (AnyCoordinator, [(AnyCoordinator, Int)]), Shrink.None<(AnyCoordinator, [(AnyCoordinator, Int)])>
    > { rng in
      let start = RandomTrees.coordinator(depth: 3, using: &rng)
      var target = start
      var changes: [(AnyCoordinator, Int)] = []
      for _ in 0..<Int.random(in: 1...5, using: &rng) {
        for _ in 0..<Int.random(in: 1...12, using: &rng) {
          target = (try? target.applying(RandomTrees.operation(for: target, using: &rng))) ?? target
        }
        changes.append((target, Int.random(in: 0...3_000, using: &rng)))
      }
      return (start, changes)
    }
    await checkProperty(count: 60, input: scenario) { start, changes in
      for host in HostProfile.allCases {
        let clock = ManualClock()
        let screen = Screen()
        let player = NavigationPlayer(start, host: host, clock: clock) { screen.shown.append($0) }
        for (target, wait) in changes {
          try player.go(to: target)
          await clock.advance(by: .milliseconds(wait))
        }
        await clock.advance(until: { !player.isPlaying })
        await player.settled()
        #expect(player.shown == changes.last?.0, "\(host)")
        for (before, after) in zip([start] + screen.shown, screen.shown) {
          #expect(
            AnyCoordinator.isLegalTransition(from: before, to: after, host: host),
            "\(host): jumped from \(before) to \(after)")
          #expect(before != after, "\(host): the host was asked to show what it showed already")
        }
      }
    }
  }
}
