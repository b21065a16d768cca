/// One screen of a stack, how it is shown, and the child flow it may host.
///
/// The unit TCACoordinators and FlowStacks apps keep in their `routes` arrays; NavStore adds the
/// optional `child` so that nested coordinators are part of the same value and the same log.
public struct Route<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// How the screen is shown.
  public var style: RouteStyle
  /// The app's state for the screen.
  public var screen: AppScreen
  /// A coordinator hosted by this screen: a nested flow with its own stack or tabs.
  public var child: Coordinator<AppScreen>?

  /// Creates a route from its parts.
  public init(style: RouteStyle, screen: AppScreen, child: Coordinator<AppScreen>? = nil) {
    self.style = style
    self.screen = screen
    self.child = child
  }

  /// The first route of a stack.
  public static func root(
    _ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil
  ) -> Route {
    Route(style: .root(withNavigation: withNavigation), screen: screen, child: child)
  }

  /// A pushed screen.
  public static func push(_ screen: AppScreen, child: Coordinator<AppScreen>? = nil) -> Route {
    Route(style: .push, screen: screen, child: child)
  }

  /// A screen presented as a sheet.
  public static func sheet(
    _ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil
  ) -> Route {
    Route(style: .sheet(withNavigation: withNavigation), screen: screen, child: child)
  }

  /// A screen presented as a full-screen cover.
  public static func cover(
    _ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil
  ) -> Route {
    Route(style: .cover(withNavigation: withNavigation), screen: screen, child: child)
  }

  /// Whether screens can be pushed on top of this route.
  package var withNavigation: Bool { style.withNavigation }

  /// Whether this route is a sheet or a cover.
  package var isPresented: Bool { style.isPresented }
}

/// A route whose screen is untyped JSON: what tools that do not know the app's types handle.
public typealias AnyRoute = Route<JSONValue>
