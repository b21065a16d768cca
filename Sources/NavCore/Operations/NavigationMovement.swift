/// How an operation moves the user: what an analyst asks of a screen view's arrival.
package enum NavigationMovement: String, Hashable, Sendable {
  /// The session's first state.
  case start
  /// A screen pushed onto a stack.
  case push
  /// A sheet or a full-screen cover presented.
  case present
  /// Routes removed from the top of a stack (back, pop, and their `To` forms).
  case back
  /// Presented routes dismissed.
  case dismiss
  /// A tab selected, or the tabs replaced.
  case tab
  /// A stack replaced, or a screen changed in place: a deep link, or a host's report.
  case replace
  /// The app's lifecycle, not its navigation.
  case lifecycle
}

extension NavigationOperation {
  /// How the operation moves the user (see `NavigationMovement`).
  package var movement: NavigationMovement { kind.operationName.movement }
}
