import NavCore
import NavPersistence

/// The app's actions, as a reducer-based app would send them.
enum Action: Sendable {
  case numbersTapped
  case numberTapped(Int)
  case tabTapped(Int)
  case sectionTapped(String)
  case onboardingStarted
  case nextStepTapped
  case promoShown(String)
  case notificationOpened(number: Int)

  /// The action as JSON, kept as each event's cause.
  var cause: JSONValue {
    switch self {
    case .numbersTapped: ["numbersTapped": [:]]
    case .numberTapped(let number): ["numberTapped": .number(Double(number))]
    case .tabTapped(let tab): ["tabTapped": .number(Double(tab))]
    case .sectionTapped(let section): ["sectionTapped": .string(section)]
    case .onboardingStarted: ["onboardingStarted": [:]]
    case .nextStepTapped: ["nextStepTapped": [:]]
    case .promoShown(let code): ["promoShown": .string(code)]
    case .notificationOpened(let number): ["notificationOpened": .number(Double(number))]
    }
  }

  /// A tap on the tab bar is the user's gesture; everything else is the app navigating.
  var origin: EventOrigin {
    if case .tabTapped = self { return .user }
    return .app
  }
}

/// A reducer-like model: the whole navigation is one value, every action changes it, and the
/// recorder is handed each new value. The recorder never blocks `send`.
@MainActor final class AppModel {
  private(set) var navigation: Coordinator<Screen>
  let recorder: NavigationRecorder<Screen>

  init(navigation: Coordinator<Screen>, recorder: NavigationRecorder<Screen>) {
    self.navigation = navigation
    self.recorder = recorder
    recorder.record(navigation, cause: ["appLaunched": [:]])
  }

  /// Where the tabs live: the child of the root screen.
  static let tabs: CoordinatorPath = [.route(0)]
  /// Where the onboarding flow lives: the child of the sheet above the root.
  static let onboarding: CoordinatorPath = [.route(1)]

  func send(_ action: Action) throws {
    try reduce(&navigation, action)
    recorder.record(navigation, cause: action.cause, origin: action.origin)
  }

  private func reduce(_ state: inout Coordinator<Screen>, _ action: Action) throws {
    let feed = Self.tabs.appending(.tab(0))
    switch action {
    case .numbersTapped:
      try state.apply(.push(.numbersList, at: feed))
    case .numberTapped(let number):
      try state.apply(.push(.numberDetail(number: number), at: feed))
    case .tabTapped(let tab):
      try state.apply(.selectTab(tab, at: Self.tabs))
    case .sectionTapped(let section):
      try state.apply(.push(.settingsSection(section), at: Self.tabs.appending(.tab(1))))
    case .onboardingStarted:
      try state.apply(
        .presentSheet(.onboarding(step: 0), child: .stack([.root(.onboarding(step: 1), withNavigation: true)])))
    case .nextStepTapped:
      let steps = try state.coordinator(at: Self.onboarding).routes?.count ?? 0
      try state.apply(.push(.onboarding(step: steps + 1), at: Self.onboarding))
    case .promoShown(let code):
      try state.apply(.push(.promo(code: code), at: Self.onboarding))
    case .notificationOpened(let number):
      // A deep link: close whatever is presented, go to the feed, show the number.
      try state.apply(.dismissAll())
      try state.apply(.selectTab(0, at: Self.tabs))
      try state.apply(.push(.numberDetail(number: number), at: feed))
    }
  }
}
