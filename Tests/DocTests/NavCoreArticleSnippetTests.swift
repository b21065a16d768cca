// swift-format-ignore-file
// (The Swift between "doc begin" and "doc end" is the docs' text, byte for byte.)
import NavCore
import NavTestSupport
import Testing

/// The Swift of NavCore's DocC catalog (Sources/NavCore/NavCore.docc), article by article.
@MainActor @Suite struct NavCoreArticleSnippetTests {
  enum Screen: Codable, Hashable, Sendable {
    case home, numbersList, numberDetail(number: Int), onboarding(step: Int), settings
  }

  /// The landing page.
  @Test func theOverview() throws {
    // doc begin
    enum Screen: Codable, Hashable, Sendable {
      case home, numbersList, numberDetail(number: Int)
    }

    var state: Coordinator<Screen> = .stack([.root(.home, withNavigation: true)])
    try state.apply(.presentSheet(.numbersList, withNavigation: true))
    try state.apply(.push(.numberDetail(number: 3)))
    let plan = try Coordinator.plan(from: state.launchState, to: state, host: .navigationStack17)
    // plan.steps: [home], then [home, sheet, detail]: NavigationStack pushes in the same update
    // doc end
    #expect(plan.steps == [
      .stack([.root(.home, withNavigation: true)]),
      .stack([.root(.home, withNavigation: true), .sheet(.numbersList, withNavigation: true), .push(.numberDetail(number: 3))]),
    ])
  }

  /// "The app's navigation model".
  @Test func theAppModel() throws {
    let state: Coordinator<Screen> = .stack([
      .root(.home, child: .tabs([
        .stack([.root(.numbersList, withNavigation: true)]),
        .stack([.root(.settings, withNavigation: true)]),
      ], selected: 0)),
    ])
    // doc begin
    let model = NavigationModel(state, failureHandling: .report)
    let tabs = model.stack.tabs(hostedBy: 0)                  // the tabs the root screen hosts
    let settings = tabs.stack(1)                              // the second tab's stack
    settings.push(.settings)
    model.perform(["notificationOpened": 3]) {                // one action: one change, one cause
      tabs.select(0)
      tabs.stack(0).push(.numberDetail(number: 3))
    }
    tabs.setTabs([tabs.tabs[1], tabs.tabs[0]], selected: 1)   // the tabs swap places
    settings.push(.onboarding(step: 1))                       // and the handle follows its tab
    // doc end
    #expect(model.lastFailure == nil)
    #expect(settings.path == [.route(0), .tab(0)])
    #expect(settings.routes.map(\.screen) == [.settings, .settings, .onboarding(step: 1)])
    #expect(tabs.stack(1).routes.map(\.screen) == [.numbersList, .numberDetail(number: 3)])
  }

  /// "The navigation model".
  @Test func theNavigationModel() throws {
    // doc begin
    enum Screen: Codable, Hashable, Sendable {
      case mainTabs, feed, post(id: Int), settings, onboarding(step: Int)
    }

    let state: Coordinator<Screen> = .stack([
      // The root screen hosts two tabs, each with a stack of its own.
      .root(.mainTabs, child: .tabs([
        .stack([.root(.feed, withNavigation: true), .push(.post(id: 7))]),
        .stack([.root(.settings, withNavigation: true)]),
      ], selected: 0)),
      // A sheet over everything, hosting an onboarding flow with its own navigation.
      .sheet(.onboarding(step: 0), child: .stack([.root(.onboarding(step: 1), withNavigation: true)])),
    ])
    // doc end
    // doc begin
    let feed: CoordinatorPath = [.route(0), .tab(0)]
    let feedStack = try state.coordinator(at: feed)
    let onboarding = try state.coordinator(at: [.route(1)])
    // doc end
    #expect(feedStack == .stack([.root(.feed, withNavigation: true), .push(.post(id: 7))]))
    #expect(onboarding == .stack([.root(.onboarding(step: 1), withNavigation: true)]))
    #expect(state.structureError() == nil)
    #expect(state.visibleScreen?.path == "/mainTabs/onboarding/onboarding")
  }

  /// "Operations".
  @Test func operations() throws {
    var printed = ""
    func print(_ value: Any) { printed = "\(value)" }
    // doc begin
    var state: Coordinator<Screen> = .stack([.root(.home, withNavigation: true)])
    try state.apply(.presentCover(.onboarding(step: 1), withNavigation: true))
    do {
      try state.apply(.pop())
    } catch {
      print(error)  // pop at the top coordinator rejected: route 1 is a cover, not a push; ...
    }
    // doc end
    #expect(printed.hasPrefix("pop at the top coordinator rejected: route 1 is a cover, not a push; "), "\(printed)")
    #expect(state == .stack([.root(.home, withNavigation: true), .cover(.onboarding(step: 1), withNavigation: true)]))

    // doc begin
    var routes: [Route<Screen>] = [.root(.home, withNavigation: true)]
    try routes.push(.numbersList)
    try routes.presentSheet(.onboarding(step: 1), withNavigation: true)
    try routes.goBackTo(.numbersList)        // -> true: the topmost match
    try routes.popToRoot()
    let canPush = routes.canPush()           // true
    // doc end
    #expect(routes == [.root(.home, withNavigation: true)] && canPush)
  }

  enum AppScreen: Codable, Hashable, Sendable {
    case mainTabs, feed, search, post, settings
  }

  /// "Operations", its diff.
  @Test func diffNamesTheOperations() throws {
    let before: Coordinator<AppScreen> = .stack([
      .root(.mainTabs, withNavigation: false, child: .tabs([.stack([.root(.feed, withNavigation: true)]), .stack([.root(.search, withNavigation: true)])], selected: 0)),
      .sheet(.settings, withNavigation: false),
    ])
    let after: Coordinator<AppScreen> = .stack([
      .root(.mainTabs, withNavigation: false, child: .tabs([.stack([.root(.feed, withNavigation: true), .push(.post)]), .stack([.root(.search, withNavigation: true)])], selected: 1)),
    ])
    // doc begin
    let operations = try Coordinator.diff(from: before, to: after)
    // [.selectTab(1, at: [.route(0)]), .push(.post, at: [.route(0), .tab(0)]), .dismiss()]
    // doc end
    #expect(operations == [.selectTab(1, at: [.route(0)]), .push(.post, at: [.route(0), .tab(0)]), .dismiss()])
    var replayed = before
    for operation in operations { try replayed.apply(operation) }
    #expect(replayed == after)
  }

  /// "Step planning".
  @Test func stepPlanning() throws {
    // doc begin
    let start: Coordinator<Screen> = .stack([.root(.home, withNavigation: true)])
    let target: Coordinator<Screen> = .stack([
      .root(.home, withNavigation: true),
      .push(.numbersList),
      .sheet(.settings, withNavigation: true),
      .push(.numberDetail(number: 3)),
    ])
    let plan = try Coordinator.plan(from: start, to: target, host: .navigationView)
    let times = plan.scheduled().map(\.atMs)   // [0, 0, 650, 1300]
    // doc end
    #expect(times == [0, 0, 650, 1300] && plan.steps.last == target)
  }

  /// "Playing the steps".
  @Test func playingTheSteps() async throws {
    let launch: Coordinator<Screen> = .stack([.root(.home, withNavigation: true)])
    let deepLink: Coordinator<Screen> = .stack([
      .root(.home, withNavigation: true), .push(.numbersList), .sheet(.settings, withNavigation: true), .push(.numberDetail(number: 3)),
    ])
    let clock = ManualClock()
    let advancing = Task.detached { while !Task.isCancelled { await clock.advance(by: .milliseconds(650)); try? await Task.sleep(for: .milliseconds(1)) } }
    defer { advancing.cancel() }
    // doc begin
    var shown: [Coordinator<Screen>] = []
    let player = NavigationPlayer(launch, host: .navigationStack17, clock: clock) { state in
      shown.append(state)          // in an app: set the routes the views bind to
    }
    try player.go(to: deepLink)    // steps 0 and 1 now, then one step per delay
    try player.changeRoutes { try $0.goBackToRoot() }
    await player.settled()
    // doc end
    #expect(player.shown == launch && shown.last == launch)
    for (from, to) in zip([launch] + shown, shown) {
      #expect(Coordinator.isLegalTransition(from: from, to: to, host: .navigationStack17))
    }

    // doc begin
    var routes = launch
    try await routes.play(to: deepLink, host: .navigationStack17, clock: clock) { routes = $0 }
    // doc end
    #expect(routes == deepLink)

    enum Action { case updateRoutes(Coordinator<Screen>) }
    var sent: [Coordinator<Screen>] = []
    func send(_ action: Action) async {
      if case .updateRoutes(let state) = action { sent.append(state) }
    }
    let plan = try Coordinator.plan(from: launch, to: deepLink)
    // doc begin
    for try await step in plan.timed(clock: clock) {
      await send(.updateRoutes(step.state))
    }
    // doc end
    #expect(sent == plan.steps)
  }

  /// "Restoring across app versions".
  @Test func restoringAcrossVersions() throws {
    // doc begin
    let stored: AnyCoordinator = .stack([
      .root(["home": [:]], withNavigation: true),
      .push(["numbersList": [:]]),
      .push(["promo": ["code": "SPRING"]]),                  // a screen version 2 removed
      .push(["numberDetail": ["number": 3]]),
    ])
    let restored = try stored.restoring(as: Screen.self)
    // restored.state: home, numbersList
    // restored.dropped: 2 routes at the top stack, from route 2 (promo)
    // doc end
    #expect(restored.state == .stack([.root(.home, withNavigation: true), .push(.numbersList)]))
    #expect(restored.dropped.count == 1)
    let cut = try #require(restored.dropped.first)
    #expect(cut.path == .top && cut.index == 2 && cut.screenName == "promo" && cut.removedRouteCount == 2)
  }

  /// "The wire format".
  @Test func theWireFormat() throws {
    // doc begin
    let op = try WireFormat.decode(AnyOperation.self, from: #"{"op":"goBack","count":2}"#)
    let text = try WireFormat.canonicalString(op)      // {"count":2,"op":"goBack"}
    // doc end
    #expect(op == .goBack(2) && text == #"{"count":2,"op":"goBack"}"#)
  }
}
