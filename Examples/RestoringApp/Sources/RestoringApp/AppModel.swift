import NavCore
import NavPersistence

/// The app's actions, as a reducer-based app would send them. `Codable`: each one is kept, as
/// is, as the cause of the change it makes.
enum Action: Codable, Sendable {
  /// The launch itself: the cause of the session's first state.
  case appLaunched
  case numbersTapped
  case numberTapped(Int)
  case tabTapped(Int)
  case sectionTapped(String)
  case onboardingStarted
  case nextStepTapped
  case promoShown(String)
  case notificationOpened(number: Int)

  /// A tap on the tab bar is the user's gesture; everything else is the app navigating.
  var origin: EventOrigin {
    if case .tabTapped = self { return .user }
    return .app
  }
}

/// The app: its navigation model, and the flows its features work on. No feature spells a
/// path: each gets its flow once, here, and the model records and shows every change.
@MainActor final class App {
  let navigation: NavigationModel<Screen>
  /// The tabs the root screen hosts, and each tab's stack.
  let tabs: TabsFlow<Screen>
  let feed: StackFlow<Screen>
  let settings: StackFlow<Screen>

  init(_ navigation: NavigationModel<Screen>) {
    self.navigation = navigation
    tabs = navigation.stack.tabs(hostedBy: 0)
    feed = tabs.stack(0)
    settings = tabs.stack(1)
  }

  /// The onboarding flow, hosted by the sheet while it is up.
  var onboarding: StackFlow<Screen> { navigation.stack.stack(hostedBy: .onboarding(step: 0)) }

  /// One action: one change, recorded with the action as its cause, and shown.
  func send(_ action: Action) {
    navigation.perform(action, origin: action.origin) {
      switch action {
      case .appLaunched:
        break  // given to the model at creation, never sent
      case .numbersTapped:
        feed.push(.numbersList)
      case .numberTapped(let number):
        feed.push(.numberDetail(number: number))
      case .tabTapped(let tab):
        tabs.select(tab)
      case .sectionTapped(let section):
        settings.push(.settingsSection(section))
      case .onboardingStarted:
        navigation.stack.presentSheet(
          .onboarding(step: 0), child: .stack([.root(.onboarding(step: 1), withNavigation: true)]))
      case .nextStepTapped:
        onboarding.push(.onboarding(step: onboarding.routes.count + 1))
      case .promoShown(let code):
        onboarding.push(.promo(code: code))
      case .notificationOpened(let number):
        // A deep link: close whatever is presented, go to the feed, show the number.
        navigation.stack.dismissAll()
        tabs.select(0)
        feed.push(.numberDetail(number: number))
      }
    }
  }
}
