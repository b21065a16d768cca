import NavCore

/// The app's screens in version 1: a Swift enum, `Codable` for free.
enum Screen: Codable, Hashable, Sendable {
  case mainTabs
  case feed
  case numbersList
  case numberDetail(number: Int)
  case settings
  case settingsSection(String)
  case onboarding(step: Int)
  case promo(code: String)
}

/// The same app's screens in version 2: `promo` was removed, and `numberDetail` gained a
/// required field. Sessions saved by version 1 still hold the old screens.
enum ScreenV2: Codable, Hashable, Sendable {
  case mainTabs
  case feed
  case numbersList
  case numberDetail(number: Int, source: String)
  case settings
  case settingsSection(String)
  case onboarding(step: Int)
}

extension Screen {
  /// What the app shows at a fresh launch: two tabs inside the root screen.
  static var launchNavigation: Coordinator<Screen> {
    .stack([
      .root(
        .mainTabs,
        child: .tabs(
          [.stack([.root(.feed, withNavigation: true)]), .stack([.root(.settings, withNavigation: true)])], selected: 0)
      )
    ])
  }
}
