@_spi(Internals) import NavCore

/// Which tab a visible screen is in: the `tab` and `tab_screen` columns of `screen-views`.
package struct ViewPlacement: Hashable, Sendable {
  /// The selected tab of the outermost tabs coordinator on the screen's path, or `nil`.
  package var tab: Int?
  /// The name of that tab's root screen, or `nil`.
  package var tabScreen: String?

  /// Follows `visible`'s path through `state` to its first tab, in time that grows with the
  /// nesting only, never with the stacks' lengths.
  package init(of visible: VisibleScreen, in state: AnyCoordinator) {
    var current = state
    for step in visible.coordinator.steps {
      switch (current, step) {
      case (.stack(let routes), .route(let index)):
        guard routes.indices.contains(index), let child = routes[index].child else { return }
        current = child
      case (.tabs(let tabs, _), .tab(let index)):
        guard tabs.indices.contains(index) else { return }
        tab = index
        if case .stack(let routes) = tabs[index] { tabScreen = routes.first?.screenName }
        return
      default:
        return
      }
    }
  }
}
