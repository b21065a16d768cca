import NavCore
import NavTestSupport
import Testing

@MainActor
struct NavigationModelTests {
  @Test func aChangeIsRecordedAndShownExactlyOnce() {
    let (model, log, shown) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    feed.push(.detail(7))
    var expected = launchState
    try? expected.apply(.push(.detail(7), at: [.route(0), .tab(0)]))
    #expect(model.state == expected)
    #expect(model.shown == expected)
    #expect(log.states == [launchState, expected])
    #expect(shown.states == [launchState, expected])
    #expect(model.lastFailure == nil)
  }

  /// The host reports every scene phase change; the recorder gets each change of phase once,
  /// and after `end` the model goes on showing its changes but records none.
  @Test func theLifecycleIsRecordedOnceAndTheEndStopsTheRecording() {
    let (model, log, shown) = makeModel()
    model.appLifecycle(.foreground)  // launching: already in the foreground
    model.appLifecycle(.background)
    model.appLifecycle(.background)
    #expect(model.phase == .background)
    model.appLifecycle(.foreground)
    model.appLifecycle(.end(reason: "signedOut"))
    model.appLifecycle(.foreground)
    #expect(log.lifecycle == [.background, .foreground, .end(reason: "signedOut")])
    #expect(model.phase == .ended)
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    feed.push(.detail(3))
    #expect(feed.routes.last?.screen == .detail(3) && shown.states.last == model.state, "shown")
    #expect(log.states == [launchState], "not recorded after the end")
  }

  /// A sign-out inside `perform`: the action's change first, then the end, both with the
  /// action as their cause; an action that fails records neither.
  @Test func anEndInsideAnActionIsRecordedAfterItsChangeWithItsCause() {
    enum Action: Encodable { case signOutTapped, broken }
    let (model, log, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    model.perform(Action.broken) {
      feed.push(.detail(1))
      model.appLifecycle(.end(reason: "signedOut"))
      model.stack.pop()  // refused: the top is the root
    }
    #expect(log.lifecycle.isEmpty && model.phase == .foreground, "a failed action reports no lifecycle event")
    model.perform(Action.signOutTapped) {
      feed.push(.detail(2))
      model.appLifecycle(.end(reason: "signedOut"))
      #expect(model.phase == .foreground, "the end is entered with the action's change")
    }
    #expect(log.all.last?.cause == ["signOutTapped": [:]])
    #expect(log.lifecycle == [.end(reason: "signedOut")])
    #expect(log.lifecycleCauses == [["signOutTapped": [:]]])
    #expect(model.phase == .ended)
  }

  /// Sign-out, then sign-in: the same model and the same flow handles go on, into a new
  /// recorder; the old session is ended once, the new one starts at the state as it is.
  @Test func aNewSessionStartsOnTheLiveModel() {
    enum Action: Encodable { case signOutTapped, signedIn }
    let (model, first, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    model.perform(Action.signOutTapped) { model.appLifecycle(.end(reason: "signedOut")) }
    feed.push(.detail(1))  // shown, not recorded: no session is being recorded
    let second = StateLog()
    model.startSession(recordingWith: second, cause: Action.signedIn)
    #expect(first.lifecycle == [.end(reason: "signedOut")], "an ended session is not ended again")
    #expect(second.all.map(\.state) == [model.state] && second.all.first?.cause == ["signedIn": [:]])
    #expect(model.phase == .foreground)
    feed.push(.detail(2))
    #expect(second.states.count == 2 && second.states.last == model.state, "the same handle records into the new one")
    #expect(first.states.count == 1)

    // A session still being recorded is ended by the next one's start, with the new cause.
    let third = StateLog()
    model.startSession(recordingWith: third)
    #expect(second.lifecycle == [.end(reason: "newSession")])
    #expect(second.lifecycleCauses == [nil])
    #expect(third.all.first?.cause == nil && third.states == [model.state])
  }

  @Test func anActionIsOneChangeWithItsCause() {
    enum Action: Encodable { case notificationOpened(number: Int) }
    let (model, log, _) = makeModel()
    let tabs = model.stack.tabs(hostedBy: 0)
    let feed = tabs.stack(0)
    tabs.select(1)
    model.stack.presentSheet(.onboarding(1))
    model.perform(Action.notificationOpened(number: 9)) {
      model.stack.dismissAll()
      tabs.select(0)
      feed.push(.detail(9))
    }
    #expect(log.all.count == 4)
    #expect(log.all.last?.cause == ["notificationOpened": ["number": 9]])
    #expect(log.all.last?.origin == .app)
    #expect(feed.routes.last?.screen == .detail(9) && tabs.selected == 0 && model.state.routes?.count == 1)
  }

  @Test func aFailedStepDropsTheWholeAction() {
    let (model, log, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    model.perform(JSONValue("tapped")) {
      feed.push(.detail(1))
      feed.pop(5)  // there are not five pushes: the action fails as a whole
    }
    #expect(model.state == launchState)
    #expect(log.states == [launchState])
    guard case .rejected(let error)? = model.lastFailure else {
      Issue.record("expected a rejected operation, got \(String(describing: model.lastFailure))")
      return
    }
    #expect(error.path == [.route(0), .tab(0)])
  }

  @Test func impossibleOperationsChangeNothingAndAreReported() async {
    let (model, log, _) = makeModel()
    var failures = model.failures.makeAsyncIterator()
    model.stack.goBack()  // nothing above the root
    #expect(model.state == launchState)
    #expect(log.states == [launchState])
    guard case .rejected(let error)? = model.lastFailure else {
      Issue.record("expected a rejection")
      return
    }
    #expect(error.reason == .wouldRemoveRoot(count: 1, routeCount: 1))
    #expect(await failures.next() == model.lastFailure)

    model.stack.presentSheet(.onboarding(1))
    model.stack.pop()  // a sheet is not a push
    #expect(model.state.routes?.count == 2)
    #expect(log.states.count == 2)
    #expect(model.stack.goBackTo(.section("absent")) == false)
  }

  @Test func throwingFormsThrowAndReportNothing() {
    let (model, log, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    #expect { try feed.change { try $0.pop() } } throws: { error in
      (error as? NavigationError)?.path == [.route(0), .tab(0)]  // where the flow is, not the top
    }
    #expect(throws: NavigationModelError.self) {
      try model.change { $0 = .tabs([.stack([.root(.feed)])], selected: 0) }  // the top cannot change kind
    }
    #expect(model.lastFailure == nil)
    #expect(log.states == [launchState])
    try? feed.change { try $0.push(.detail(2)) }
    #expect(feed.routes.map(\.screen) == [.feed, .detail(2)])
  }

  @Test func aGestureFlowsBackAsTheUsers() {
    let (model, log, shown) = makeModel()
    let tabs = model.stack.tabs(hostedBy: 0)
    let feed = tabs.stack(0)
    feed.push(.detail(1))
    feed.push(.detail(2))
    // The host pops one screen with a back swipe, then the user taps the second tab.
    feed.shownRoutes = Array(feed.shownRoutes.dropLast())
    tabs.selection = 1
    #expect(feed.routes.map(\.screen) == [.feed, .detail(1)])
    #expect(tabs.selected == 1)
    #expect(log.all.suffix(2).map(\.origin) == [.user, .user])
    #expect(log.all.suffix(2).map(\.cause) == [nil, nil])
    #expect(shown.states.last == model.state)
    // The host writing what it already shows changes nothing.
    tabs.selection = 1
    #expect(log.all.count == 5)
  }

  @Test func aChildHandleFollowsItsFlowAndFailsOnceItIsGone() {
    let (model, log, _) = makeModel()
    let tabs = model.stack.tabs(hostedBy: 0)
    let settings = tabs.stack(1)
    settings.push(.section("privacy"))
    #expect(settings.path == [.route(0), .tab(1)])

    // The tabs are reordered: the handle finds the settings tab where it went.
    tabs.setTabs([tabs.tabs[1], tabs.tabs[0]], selected: 0)
    #expect(settings.path == [.route(0), .tab(0)])
    settings.push(.section("storage"))
    #expect(settings.routes.map(\.screen) == [.settings, .section("privacy"), .section("storage")])

    // The tab goes: the handle fails clearly rather than acting on the tab now at its index.
    let before = model.state
    let recorded = log.all.count
    tabs.setTabs([tabs.tabs[1]], selected: 0)
    let afterRemoval = model.state
    settings.push(.section("lost"))
    #expect(model.state == afterRemoval && model.state != before)
    #expect(log.all.count == recorded + 1)
    #expect(model.lastFailure == .flowGone(kind: .stack, path: [.route(0), .tab(1)]))
    #expect(settings.path == nil && settings.routes.isEmpty)
  }

  @Test func aHandleToAScreensFlowFollowsTheScreen() {
    let (model, _, _) = makeModel()
    model.stack.presentSheet(.onboarding(0), child: .stack([.root(.onboarding(1), withNavigation: true)]))
    let onboarding = model.stack.stack(hostedBy: .onboarding(0))
    onboarding.push(.onboarding(2))
    #expect(onboarding.path == [.route(1)])
    // Another sheet of the same flow's kind replaces it: a new screen, not the handle's.
    model.stack.dismiss()
    model.stack.presentSheet(.onboarding(9), child: .stack([.root(.onboarding(1), withNavigation: true)]))
    onboarding.push(.onboarding(3))
    #expect(model.lastFailure == .flowGone(kind: .stack, path: [.route(1)]))
    #expect(model.state.routes?.last?.child?.routes?.count == 1)
  }

  @Test func aHandleAskedForAMissingFlowIsGoneFromTheStart() {
    let (model, log, _) = makeModel()
    let nowhere = model.stack.stack(hostedBy: 5)
    nowhere.push(.detail(1))
    #expect(model.lastFailure == .flowNotFound(kind: .stack, asked: "hosted by route 5 of the top stack"))
    #expect(log.states == [launchState])
    // The root hosts tabs, not a stack: asking for a stack there is asking for nothing.
    model.stack.stack(hostedBy: 0).push(.detail(1))
    #expect(
      model.lastFailure == .flowNotFound(kind: .stack, asked: "hosted by route 0 of the top stack (it hosts tabs)"))
  }

  /// `.detail(8)` hosting a flow becomes `.detail(9)`, then `.detail(10)`, through
  /// `updateScreen`: a handle made at 8 follows it. A screen replaced by `setRoutes` is a new
  /// screen: the handle is gone then.
  @Test func aHandleFollowsItsHostScreenThroughUpdateScreen() throws {
    let (model, log, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    feed.push(.detail(8), child: .stack([.root(.section("cart"), withNavigation: true)]))
    let cart = feed.stack(hostedBy: .detail(8))
    feed.updateScreen(at: 1, to: .detail(9))
    cart.push(.section("payment"))
    feed.updateScreen(at: 1, to: .detail(10))
    cart.push(.section("done"))
    #expect(model.lastFailure == nil)
    #expect(cart.routes.map(\.screen) == [.section("cart"), .section("payment"), .section("done")])
    #expect(cart.path == [.route(0), .tab(0), .route(1)])

    // A tab whose root screen changes keeps its handle too.
    let tabs = model.stack.tabs(hostedBy: 0)
    let settings = tabs.stack(1)
    settings.updateScreen(at: 0, to: .section("preferences"))
    settings.push(.detail(1))
    #expect(model.lastFailure == nil && settings.routes.count == 2)

    var replaced = feed.routes
    replaced[1].screen = .detail(11)
    feed.setRoutes(replaced)
    let recorded = log.states.count
    cart.push(.section("again"))
    #expect(model.lastFailure == .flowGone(kind: .stack, path: [.route(0), .tab(0), .route(1)]))
    #expect(log.states.count == recorded)
  }

  /// A handle for a screen the flow never showed says what was asked, not a path with -1.
  @Test func aHandleForAScreenNeverThereSaysWhatWasAsked() {
    let (model, _, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    feed.stack(hostedBy: .detail(99)).push(.detail(1))
    let failure = model.lastFailure
    #expect(failure == .flowNotFound(kind: .stack, asked: "hosted by detail(99) in the stack at path [route 0, tab 0]"))
    #expect(failure.map { "\($0)".contains("-1") } == false)
    model.stack.tabs(hostedBy: 0).tabs(5).select(0)
    #expect(model.lastFailure == .flowNotFound(kind: .tabs, asked: "in tab 5 of the tabs at path [route 0]"))
    model.stack.tabs(hostedBy: 0).tabs(0).select(0)
    #expect(
      model.lastFailure == .flowNotFound(kind: .tabs, asked: "in tab 0 of the tabs at path [route 0] (it is stack)"))
  }

  /// `lastFailure` is the last call's outcome: a call that succeeds clears it, a gesture the
  /// host writes back does not.
  @Test func lastFailureIsTheLastCallsOutcome() {
    let (model, _, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    feed.pop()
    #expect(model.lastFailure != nil)
    feed.push(.detail(1))
    #expect(model.lastFailure == nil)
    model.perform { feed.pop(2) }
    #expect(model.lastFailure != nil)
    feed.shownRoutes = Array(feed.shownRoutes.prefix(1))  // the user's back swipe
    #expect(model.lastFailure != nil, "a gesture is not a call of the app's")
    model.perform { feed.push(.detail(2)) }
    #expect(model.lastFailure == nil)
    feed.pop(5)
    #expect(throws: NavigationError.self) { try feed.change { try $0.pop(5) } }
    #expect(model.lastFailure == nil, "a throwing call is a call: its failure is thrown, not kept")
  }

  /// With nothing presented, `dismiss()` and `dismissAll()` both change nothing and report
  /// nothing; a dismiss of more layers than are presented is still refused.
  @Test func dismissAndDismissAllWithNothingPresentedAreAlike() {
    let (model, log, _) = makeModel()
    let feed = model.stack.tabs(hostedBy: 0).stack(0)
    feed.push(.detail(1))
    feed.dismiss()
    #expect(model.lastFailure == nil)
    feed.dismissAll()
    #expect(model.lastFailure == nil)
    #expect(feed.routes.count == 2 && log.states.count == 2)
    model.stack.presentSheet(.onboarding(1))
    model.stack.dismiss(count: 2)
    #expect(model.lastFailure != nil)
    model.stack.dismiss()
    #expect(model.lastFailure == nil && model.state.routes?.count == 1)
  }

  @Test func aRestoreIsPlayedInLegalStepsAndRecordedOnce() async {
    var deep = launchState
    try? deep.apply(.push(.detail(1), at: [.route(0), .tab(0)]))
    try? deep.apply(.push(.detail(2), at: [.route(0), .tab(0)]))
    try? deep.apply(.presentSheet(.onboarding(0), child: .stack([.root(.onboarding(1), withNavigation: true)])))
    let (model, log, shown) = makeModel(deep, launchingFrom: deep.launchState)
    await model.settled()
    #expect(model.shown == deep)
    #expect(log.states == [deep])
    #expect(shown.states.count >= 3, "played in steps, not shown at once")
    for (old, new) in zip(shown.states, shown.states.dropFirst()) {
      #expect(Coordinator.isLegalTransition(from: old, to: new, host: .default))
    }
  }

  @Test func aHostGivenOnShowAtCreationSeesEveryStepOfTheRestoreFromTheFirst() async throws {
    var deep = launchState
    try deep.apply(.push(.detail(1), at: [.route(0), .tab(0)]))
    try deep.apply(.push(.detail(2), at: [.route(0), .tab(0)]))
    try deep.apply(.presentSheet(.onboarding(0), child: .stack([.root(.onboarding(1), withNavigation: true)])))
    var seen: [Coordinator<ModelScreen>] = []
    let model = NavigationModel(
      deep, launchingFrom: deep.launchState, delayMilliseconds: 10, clock: ImmediateTestClock(),
      failureHandling: .report
    ) { seen.append($0) }
    #expect(!seen.isEmpty, "the steps shown while the model is made reach the host")
    await model.settled()
    // Every step of the plan, but one equal to the launch state the host starts at.
    let plan = try Coordinator.plan(from: deep.launchState, to: deep, host: .default)
    #expect(seen == plan.steps.filter { $0 != deep.launchState })
    #expect(seen.count >= 3)
  }

  @Test func aHandleWhoseHostHadATwinIsNotTakenForTheTwin() {
    let flow: Coordinator<ModelScreen> = .stack([.root(.onboarding(0), withNavigation: true)])
    let (model, _, _) = makeModel(.stack([.root(.home, withNavigation: true)]))
    model.stack.push(.detail(1), child: flow)
    model.stack.push(.settings)
    model.stack.push(.detail(1), child: flow)
    let upper = model.stack.stack(hostedBy: 3)
    upper.push(.onboarding(1))
    #expect(upper.path == [.route(3)])
    // The upper twin goes; the lower one, equal to it, must not be taken for it.
    model.stack.goBackTo(index: 2)
    let before = model.state
    upper.push(.onboarding(2))
    #expect(model.lastFailure == .flowGone(kind: .stack, path: [.route(3)]))
    #expect(model.state == before)
  }

  @Test func aStepThatFindsNoFlowInsideAnActionDropsTheAction() {
    let (model, log, _) = makeModel()
    let gone = model.stack.stack(hostedBy: 7)
    model.perform(JSONValue("both")) {
      model.stack.tabs(hostedBy: 0).stack(0).push(.detail(1))
      gone.goBackTo(.home)
    }
    #expect(model.state == launchState && log.states == [launchState])
    #expect(model.lastFailure == .flowNotFound(kind: .stack, asked: "hosted by route 7 of the top stack"))
  }

  @Test func aHostWritingToAFlowItIsTakingDownIsNotAFailure() {
    let (model, log, _) = makeModel()
    model.stack.presentSheet(.onboarding(0), child: .stack([.root(.onboarding(1), withNavigation: true)]))
    let sheetFlow = model.stack.stack(hostedBy: 1)
    model.stack.dismiss()
    sheetFlow.shownRoutes = [.root(.onboarding(1), withNavigation: true)]
    #expect(model.lastFailure == nil && log.states.count == 3)
  }
}
