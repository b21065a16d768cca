/// What a person sees of a navigation tree: the screen on top, and how they got there.
public struct VisibleScreen: Hashable, Sendable {
  /// The name of the screen on top (the screen-name rule).
  public var name: String
  /// The names of the screens on the visible path, from the top root down to the visible one:
  /// `/home/numbersList/numberDetail`. Analytics tools call this the screen's path. It is
  /// bounded, however deep the tree: past `pathNameLimit` names it keeps the root's, `…` for
  /// those left out, and the ones nearest the screen; a name longer than `pathNameLength`
  /// characters is cut, ending with `…`.
  public var path: String
  /// The coordinator the visible route belongs to.
  public var coordinator: CoordinatorPath
  /// The visible route's index in that coordinator's stack.
  public var index: Int

  /// The most names a path holds (`…` included).
  package static let pathNameLimit = 12
  /// The longest name a path holds whole, in characters.
  package static let pathNameLength = 64
}

extension Coordinator {
  /// The screen on top and the path to it, following each stack's top route into its child and
  /// each tabs coordinator into its selected tab. Costs the nesting of the tree, not the lengths
  /// of its stacks.
  public var visibleScreen: VisibleScreen? {
    var stacks: [[Route<AppScreen>]] = []
    var steps: [PathStep] = []
    var current = self
    while true {
      switch current {
      case .stack(let routes):
        guard let top = routes.last else { return nil }
        stacks.append(routes)
        let index = routes.count - 1
        if let child = top.child {
          steps.append(.route(index))
          current = child
          continue
        }
        return VisibleScreen(
          name: top.screenName, path: Self.path(through: stacks), coordinator: CoordinatorPath(steps), index: index)
      case .tabs(let tabs, let selected):
        guard tabs.indices.contains(selected) else { return nil }
        steps.append(.tab(selected))
        current = tabs[selected]
      }
    }
  }

  /// The path of names through `stacks` (the visible path's, outermost first), bounded as
  /// `VisibleScreen.path` says.
  private static func path(through stacks: [[Route<AppScreen>]]) -> String {
    func shortened(_ name: String) -> String {
      name.count <= VisibleScreen.pathNameLength ? name : String(name.prefix(VisibleScreen.pathNameLength - 1)) + "…"
    }
    let total = stacks.reduce(0) { $0 + $1.count }
    let nearest = total <= VisibleScreen.pathNameLimit ? total : VisibleScreen.pathNameLimit - 2
    var tail: [String] = []
    tail.reserveCapacity(nearest)
    outer: for routes in stacks.reversed() {
      for route in routes.reversed() {
        guard tail.count < nearest else { break outer }
        tail.append(shortened(route.screenName))
      }
    }
    var names = tail.reversed() as [String]
    if nearest < total, let root = stacks.first?.first {
      names.insert(contentsOf: [shortened(root.screenName), "…"], at: 0)
    }
    return "/" + names.joined(separator: "/")
  }
}

extension Coordinator {
  /// The route on top, where `visibleScreen` finds it, without the names on the way: a walk of
  /// the visible path, in time that does not grow with the stacks' lengths.
  package var visibleRoute: Route<AppScreen>? {
    var current = self
    while true {
      switch current {
      case .stack(let routes):
        guard let top = routes.last else { return nil }
        guard let child = top.child else { return top }
        current = child
      case .tabs(let tabs, let selected):
        guard tabs.indices.contains(selected) else { return nil }
        current = tabs[selected]
      }
    }
  }
}
