/// What makes a screen the same screen from one state to the next, for finding a flow again
/// after the tree around it changed.
///
/// An `Identifiable` screen is its `id`, as in TCACoordinators' identified routes: a screen
/// whose content changes in place (a counter, a loaded model) stays the same screen. Any other
/// screen is its value.
struct ScreenIdentity: Hashable {
  private let key: AnyHashable

  init<AppScreen: NavigationScreen>(_ screen: AppScreen) {
    if let identifiable = screen as? any Identifiable {
      key = Self.id(of: identifiable)
    } else {
      key = AnyHashable(screen)
    }
  }

  private static func id<Value: Identifiable>(of value: Value) -> AnyHashable {
    AnyHashable(value.id)
  }
}
