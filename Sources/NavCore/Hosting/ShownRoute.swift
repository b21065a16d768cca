/// One route of a stack as the host shows it, with the flow it belongs to and the flow it hosts.
///
/// Given by a ``ShownLayer``: its base, and each entry of its path (``ShownLayer/route(at:)``).
/// A screen's view reads `screen`, calls `flow` for what the user asks (`flow.push(...)`), and
/// shows `child`, when the route hosts a flow of its own, with the same host views.
@MainActor
public struct ShownRoute<AppScreen: NavigationScreen> {
  /// The route's index in its stack.
  public let index: Int
  /// The route as shown: its style, its screen and the child coordinator it hosts.
  public let route: Route<AppScreen>
  /// The stack the route is in.
  public let flow: StackFlow<AppScreen>

  /// The screen to show.
  public var screen: AppScreen { route.screen }

  /// A handle to the flow the route hosts, or `nil` when it hosts none.
  public var child: HostedFlow<AppScreen>? {
    route.child.map { HostedFlow(kind: $0.kind, at: .route(index), below: flow.anchor, of: flow.model) }
  }
}
