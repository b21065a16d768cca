/// One layer of a stack as a host shows it: the stack's root, or a presented sheet or cover,
/// with the screens pushed on it.
///
/// A stack's routes mix what a host shows in different places: `[root, push a, sheet b, push c]`
/// is a navigation stack whose path is `[a]`, with a sheet over it whose own navigation shows `c`
/// pushed on `b`. ``layers(of:)`` makes that split once, so that a host binds each navigation
/// view to its own layer's path and each presentation to the layer above it, as FlowStacks'
/// `FlowStack` does for its users. The layers, in order, rebuild the routes exactly.
public struct StackLayer<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// The index, in the stack's routes, of the layer's first route: 0 for the base layer, the
  /// presented route's index for the others.
  public let start: Int
  /// The layer's first route: the stack's root, or the sheet or cover that presents the layer.
  public let base: Route<AppScreen>
  /// The routes pushed on `base`, in order; they stand at `start + 1`, `start + 2`, ...
  public let pushes: [Route<AppScreen>]

  /// Whether the layer shows a navigation view (its base has navigation), so that pushes on it
  /// are shown as a navigation path.
  public var withNavigation: Bool { base.style.withNavigation }

  /// The indices, in the stack's routes, of the layer's pushes: the path its navigation view
  /// binds to. Indices stay the same while a screen's value changes, so a destination keeps its
  /// identity for the host.
  public var path: [Int] { Array(start + 1..<end) }

  /// The index just past the layer's last route.
  package var end: Int { start + 1 + pushes.count }

  /// The layers of `routes`, base first: a new layer begins at the root and at each sheet or
  /// cover; every other route is a push on the layer it follows. Empty for empty routes.
  public static func layers(of routes: [Route<AppScreen>]) -> [StackLayer] {
    var layers: [StackLayer] = []
    var start = 0
    while start < routes.endIndex {
      let next = routes[(start + 1)...].firstIndex(where: \.style.isPresented) ?? routes.endIndex
      layers.append(StackLayer(start: start, base: routes[start], pushes: Array(routes[(start + 1)..<next])))
      start = next
    }
    return layers
  }

  /// The routes once the host shows only the first `count` of this layer's pushes: what a back
  /// swipe (or a tap on the back button) in the layer's navigation view makes of `routes`. Like
  /// FlowStacks, it truncates: the layers above go with the pushes.
  package func keepingPushes(_ count: Int, of routes: [Route<AppScreen>]) -> [Route<AppScreen>] {
    Array(routes.prefix(start + 1 + min(max(count, 0), pushes.count)))
  }

  /// The routes once the host no longer presents this layer: what dragging its sheet down makes
  /// of `routes`. Everything from the layer's base up goes; the base layer cannot be dismissed
  /// and leaves `routes` as they are.
  package func dismissing(from routes: [Route<AppScreen>]) -> [Route<AppScreen>] {
    start == 0 ? routes : Array(routes.prefix(start))
  }
}
