import NavCore
import NavTestSupport
import Testing

/// A restore of two tabs, the feed on screen with a push and a sheet, the profile tab deep but
/// hidden, as the user saw it: the feed and its sheet arrive first, the hidden tab
/// after; a tab tapped while the restore plays keeps the rest of the restore.
@MainActor
@Suite struct RestoreOrderTests {
  enum Action: Encodable { case notificationOpened(Int) }

  static let target: Coordinator<ModelScreen> = .stack([
    .root(
      .home,
      child: .tabs(
        [
          .stack([.root(.feed, withNavigation: true), .push(.detail(1)), .sheet(.onboarding(1))]),
          .stack([.root(.settings, withNavigation: true), .push(.section("a")), .push(.section("b"))]),
        ], selected: 0))
  ])

  @Test func theUsersScreenAndSheetArriveBeforeTheHiddenTab() throws {
    let plan = try Coordinator.plan(from: Self.target.launchState, to: Self.target, host: .navigationView)
    let feed: CoordinatorPath = [.route(0), .tab(0)]
    let profile: CoordinatorPath = [.route(0), .tab(1)]
    let sheetShown = try #require(plan.steps.firstIndex { (try? $0.coordinator(at: feed))?.routes?.count == 3 })
    let firstHidden = try #require(plan.steps.firstIndex { (try? $0.coordinator(at: profile))?.routes?.count != 1 })
    #expect(sheetShown == 2, "the push and the sheet, one step each under NavigationView")
    #expect(firstHidden == 3)
    let times = plan.scheduled().map(\.atMs)
    #expect(times[sheetShown] == 650, "the sheet at 650 ms, where the hidden pushes made it 1,950 ms")
  }

  /// From a start that shows another tab (a deep link to the hidden tab's sheet), what ends
  /// hidden is judged by the target: the pushes into the tab the user leaves come after the
  /// user's screen and sheet, not before.
  @Test func theTabTheUserLeavesIsBuiltAfterTheScreenTheyLandOn() throws {
    let start: Coordinator<ModelScreen> = .tabs(
      [.stack([.root(.feed, withNavigation: true)]), .stack([.root(.settings, withNavigation: true)])], selected: 0)
    let target: Coordinator<ModelScreen> = .tabs(
      [
        .stack([.root(.feed, withNavigation: true), .push(.detail(1)), .push(.detail(2)), .push(.detail(3))]),
        .stack([.root(.settings, withNavigation: true), .push(.section("x")), .sheet(.onboarding(1))]),
      ], selected: 1)
    let plan = try Coordinator.plan(from: start, to: target, host: .navigationView)
    let sheetShown = try #require(plan.steps.firstIndex { (try? $0.coordinator(at: [.tab(1)]))?.routes?.count == 3 })
    let firstFeedPush = try #require(plan.steps.firstIndex { (try? $0.coordinator(at: [.tab(0)]))?.routes?.count != 1 })
    #expect(sheetShown < firstFeedPush, "the feed's pushes came before the user's sheet")
    #expect(plan.scheduled().map(\.atMs)[sheetShown] == 1_300, "the selection at once, the push, then the sheet")
    #expect(plan.steps.last == target)
    // A sheet over the tab the user leaves still goes first, while it is on screen.
    let covered: Coordinator<ModelScreen> = .tabs(
      [
        .stack([.root(.feed, withNavigation: true), .sheet(.onboarding(2))]),
        .stack([.root(.settings, withNavigation: true)]),
      ],
      selected: 0)
    let uncovering = try Coordinator.plan(from: covered, to: target, host: .navigationView)
    let moved = try #require(
      uncovering.steps.firstIndex {
        if case .tabs(_, selected: 1) = $0 { return true }
        return false
      })
    #expect(
      uncovering.steps[moved - 1] == start, "the sheet is dismissed, and nothing else, before the selection moves")
  }

  @Test func aTabTappedWhileTheRestorePlaysKeepsTheRestOfTheRestore() async throws {
    let clock = ManualClock()
    let log = StateLog()
    let model = NavigationModel(
      Self.target, launchingFrom: Self.target.launchState, recorder: log, host: .navigationView, clock: clock,
      failureHandling: .report)
    let tabs = model.stack.tabs(hostedBy: 0)
    await clock.advance(by: .milliseconds(650))
    await clock.advance(until: { tabs.stack(0).shownRoutes.count == 3 })
    #expect(model.isPlaying, "the hidden tab is still to be built")
    tabs.selection = 1  // the user taps the profile tab
    var expected = Self.target
    try expected.apply(.selectTab(1, at: [.route(0)]))
    #expect(model.state == expected, "the restore of the profile tab is kept")
    #expect(log.all.last?.origin == .user && log.all.last?.state == expected)
    await clock.advance(until: { !model.isPlaying })
    await model.settled()
    #expect(model.shown == expected)
    #expect(log.states == [Self.target, expected], "the gesture recorded once, nothing else")
  }

  /// A launch opened by a notification restores beneath it in one plan: the host goes from the
  /// launch state to the linked screen, never through the restored screens the link covers,
  /// and the link's change is recorded after the start with its action as the cause. Made the
  /// old way (a model, then `perform`), the feed's detail is shown first and the sheet waits a
  /// full delay behind it.
  @Test func aNotificationOpenedAtLaunchLandsInThePlanOfTheRestore() async throws {
    let notification = Action.notificationOpened(7)
    let open: @MainActor (NavigationModel<ModelScreen>) -> Void = { model in
      let tabs = model.stack.tabs(hostedBy: 0)
      tabs.stack(0).goBackToRoot()
      tabs.stack(0).presentSheet(.onboarding(7))
    }
    var linked = Self.target
    try linked.apply(.goBackToRoot(at: [.route(0), .tab(0)]))
    try linked.apply(.presentSheet(.onboarding(7), at: [.route(0), .tab(0)]))

    let clock = ManualClock()
    let log = StateLog()
    var shown: [Coordinator<ModelScreen>] = []
    let model = NavigationModel(
      Self.target, launchingFrom: Self.target.launchState, recorder: log, host: .navigationView, clock: clock,
      failureHandling: .report, onShow: { shown.append($0) }, opening: DeepLink(notification, open))
    #expect(model.state == linked)
    await clock.advance(until: { !model.isPlaying })
    #expect(model.shown == linked)
    let feed: CoordinatorPath = [.route(0), .tab(0)]
    #expect(
      !shown.contains { (try? $0.coordinator(at: feed))?.routes?.contains { $0.screen == .detail(1) } == true },
      "the restored detail the link covers was shown: \(shown)")
    let sheetAt = try #require(shown.firstIndex { (try? $0.coordinator(at: feed))?.routes?.count == 2 })
    #expect(sheetAt == 0, "the linked sheet is the first thing the host shows")
    #expect(log.states == [Self.target, linked])
    #expect(log.all.map(\.cause) == [nil, try JSONValue(encoding: notification)])

    // The old way: the restore starts, then the link replans from the detail it showed.
    let oldClock = ManualClock()
    var oldShown: [Coordinator<ModelScreen>] = []
    let old = NavigationModel(
      Self.target, launchingFrom: Self.target.launchState, host: .navigationView, clock: oldClock,
      failureHandling: .report, onShow: { oldShown.append($0) })
    old.perform(notification) { open(old) }
    await oldClock.advance(until: { !old.isPlaying })
    #expect(
      oldShown.contains { (try? $0.coordinator(at: feed))?.routes?.contains { $0.screen == .detail(1) } == true },
      "the comparison no longer shows what it was written to show")
  }

  /// A back swipe while the restore plays cuts the stack it is in, and keeps the rest.
  @Test func aBackSwipeWhileTheRestorePlaysCutsOnlyItsStack() async throws {
    let clock = ManualClock()
    let model = NavigationModel(
      Self.target, launchingFrom: Self.target.launchState, host: .navigationView, clock: clock,
      failureHandling: .report)
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    await clock.advance(until: { feed.shownRoutes.count == 3 })
    #expect(model.isPlaying)
    feed.baseLayer.showsSheet = false  // the user drags the sheet down
    var expected = Self.target
    try expected.apply(.dismiss(at: [.route(0), .tab(0)]))
    #expect(model.state == expected)
    await clock.advance(until: { !model.isPlaying })
    await model.settled()
    #expect(model.shown == expected)
  }
}
