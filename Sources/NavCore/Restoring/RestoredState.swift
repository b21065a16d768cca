/// A stored state decoded into the app's screen type, and what could not be.
public struct RestoredState<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// The state to show: the stored one, minus the dropped routes.
  public var state: Coordinator<AppScreen>
  /// Each undecodable screen that cut something, in the order the tree is read (a stack's
  /// routes from the root up, each route's hosted flow before the route above it; tabs in
  /// order). Empty when everything decoded.
  public var dropped: [DroppedRoute]

  /// Creates a restored state.
  package init(state: Coordinator<AppScreen>, dropped: [DroppedRoute]) {
    self.state = state
    self.dropped = dropped
  }
}
