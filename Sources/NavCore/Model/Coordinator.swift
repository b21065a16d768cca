/// A node of the navigation tree: a stack of routes, or tabs that each hold a coordinator.
///
/// The whole navigation of a session is one `Coordinator` value (the top one), so it can be
/// compared, diffed, stored and replayed as a unit. A well-formed stack has at least one route,
/// a root first and nowhere else; well-formed tabs have at least one tab and a valid
/// selection. `structureError()` checks both, all the way down.
public enum Coordinator<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// A stack of routes, the root at index 0.
  case stack([Route<AppScreen>])
  /// Tabs, each a coordinator of its own, and the index of the selected one.
  case tabs([Coordinator<AppScreen>], selected: Int)

  /// The kind of coordinator, for messages and for checks that only care about the shape.
  package var kind: CoordinatorKind {
    switch self {
    case .stack: .stack
    case .tabs: .tabs
    }
  }

  /// The routes, when this is a stack.
  public var routes: [Route<AppScreen>]? {
    if case .stack(let routes) = self { return routes }
    return nil
  }
}

/// Whether a coordinator is a stack or tabs.
public enum CoordinatorKind: String, Hashable, Sendable, CustomStringConvertible {
  /// A stack of routes.
  case stack
  /// Tabs.
  case tabs

  public var description: String { rawValue }
}

/// A coordinator whose screens are untyped JSON.
public typealias AnyCoordinator = Coordinator<JSONValue>
