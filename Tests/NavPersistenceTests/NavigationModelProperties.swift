import NavCore
import NavPersistence
import NavTestSupport
import PropertyBased
import Testing

/// Random user sessions played through a `NavigationModel` and its flow handles, recorded into
/// a real store: the store's history replays to the model's state, and every step shown on the
/// way was one a host can apply.
@MainActor
@Suite struct NavigationModelProperties {
  enum Screen: Codable, Hashable, Sendable {
    case home, feed, settings
    case detail(Int)
    case section(Int)
    case onboarding(Int)
  }

  /// One thing a user or the app does.
  enum Step: CustomStringConvertible {
    case pushFeed(Int)
    case pushSettings(Int)
    case selectTab(Int)
    case tapTab(Int)
    case presentOnboarding
    case pushOnboarding(Int)
    case dismiss
    case goBackFeed(Int)
    case popSettings(Int)
    case swipeBackFeed
    case deepLink(Int)
    case goBackToRoot

    var description: String { String(reflecting: self) }
  }

  static let launch: Coordinator<Screen> = .stack([
    .root(
      .home,
      child: .tabs(
        [.stack([.root(.feed, withNavigation: true)]), .stack([.root(.settings, withNavigation: true)])], selected: 0))
  ])

  static let scripts = Generator<[Step], Shrink.None<[Step]>> { rng in
    (0..<Int.random(in: 1...30, using: &rng)).map { _ in
      let n = Int.random(in: 0...3, using: &rng)
      switch Int.random(in: 0...11, using: &rng) {
      case 0: return .pushFeed(n)
      case 1: return .pushSettings(n)
      case 2: return .selectTab(n % 3)  // tab 2 does not exist: refused
      case 3: return .tapTab(n % 2)
      case 4: return .presentOnboarding
      case 5: return .pushOnboarding(n)
      case 6: return .dismiss
      case 7: return .goBackFeed(n)  // going back 0 or past the root: refused
      case 8: return .popSettings(n)
      case 9: return .swipeBackFeed
      case 10: return .deepLink(n)
      default: return .goBackToRoot
      }
    }
  }

  @Test func theRecordedHistoryReplaysToTheModelAndEveryShownStepIsLegal() async {
    await checkProperty(count: 40, input: Self.scripts) { script in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("m.sqlite"))
      let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("s"))
      let model = NavigationModel(
        Self.launch, recorder: recorder, host: .navigationStack17, delayMilliseconds: 0, failureHandling: .report)
      var shown = [model.shown]
      model.onShow = { shown.append($0) }
      let tabs = model.stack.tabs(hostedBy: 0)
      let feed = tabs.stack(0)
      let settings = tabs.stack(1)
      var changes = 1  // the launch state
      for step in script {
        let before = model.state
        Self.play(step, model: model, tabs: tabs, feed: feed, settings: settings)
        if model.state != before { changes += 1 }
        #expect(model.shown == model.state, "\(step) is shown at once with no delay")
      }
      try await recorder.flush()
      let restored = try await store.read { try $0.restore(recorder.session, as: Screen.self) }
      #expect(restored.state == model.state, "script \(script)")
      // A change is one event or more (a deep link's is several): never fewer than the changes.
      #expect(try await store.read { try $0.state(of: recorder.session) }.seq >= changes)
      for (old, new) in zip(shown, shown.dropFirst()) {
        #expect(Coordinator.isLegalTransition(from: old, to: new, host: .navigationStack17), "\(old) -> \(new)")
      }
      #expect(try await store.read { try $0.verify() }.allSatisfy(\.isIntact))
    }
  }

  static func play(
    _ step: Step, model: NavigationModel<Screen>, tabs: TabsFlow<Screen>, feed: StackFlow<Screen>,
    settings: StackFlow<Screen>
  ) {
    switch step {
    case .pushFeed(let n): feed.push(.detail(n))
    case .pushSettings(let n): settings.push(.section(n))
    case .selectTab(let index): tabs.select(index)
    case .tapTab(let index): tabs.selection = index
    case .presentOnboarding:
      model.stack.presentSheet(.onboarding(0), child: .stack([.root(.onboarding(1), withNavigation: true)]))
    case .pushOnboarding(let n):
      // Made when needed: the onboarding flow comes and goes.
      model.stack.stack(hostedBy: .onboarding(0)).push(.onboarding(n + 2))
    case .dismiss: model.stack.dismiss()
    case .goBackFeed(let count): feed.goBack(count)
    case .popSettings(let count): settings.pop(count)
    case .swipeBackFeed:
      if feed.shownRoutes.count > 1 { feed.shownRoutes.removeLast() }
    case .deepLink(let n):
      model.perform(["deepLink": JSONValue(integerLiteral: n)]) {
        model.stack.dismissAll()
        tabs.select(0)
        feed.push(.detail(n))
      }
    case .goBackToRoot: feed.goBackToRoot()
    }
  }
}
