/// Why the player refused a change.
public enum PlaybackError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `changeRoutes` was called while the top coordinator is tabs, which have no routes.
  case notAStack

  public var description: String {
    switch self {
    case .notAStack: "the navigation's top coordinator is tabs, not a stack: use change(_:) to edit it"
    }
  }
}
