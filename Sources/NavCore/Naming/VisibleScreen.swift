/// What a person sees of a navigation tree: the screen on top, and how they got there.
public struct VisibleScreen: Hashable, Sendable {
  /// The name of the screen on top (the screen-name rule).
  public var name: String
  /// The names of the screens on the visible path, from the top root down to the visible one:
  /// `/home/numbersList/numberDetail`. Analytics tools call this the screen's path.
  public var path: String
  /// The coordinator the visible route belongs to.
  public var coordinator: CoordinatorPath
  /// The visible route's index in that coordinator's stack.
  public var index: Int
}

extension Coordinator {
  /// The screen on top and the path to it, following each stack's top route into its child and
  /// each tabs coordinator into its selected tab.
  public var visibleScreen: VisibleScreen? {
    var names: [String] = []
    var steps: [PathStep] = []
    var current = self
    while true {
      switch current {
      case .stack(let routes):
        names.append(contentsOf: routes.map(\.screenName))
        guard let top = routes.last else { return nil }
        let index = routes.count - 1
        if let child = top.child {
          steps.append(.route(index))
          current = child
          continue
        }
        return VisibleScreen(
          name: top.screenName, path: "/" + names.joined(separator: "/"), coordinator: CoordinatorPath(steps),
          index: index)
      case .tabs(let tabs, let selected):
        guard tabs.indices.contains(selected) else { return nil }
        steps.append(.tab(selected))
        current = tabs[selected]
      }
    }
  }
}
