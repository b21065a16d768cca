/// How a flow handle finds its flow in the current tree: the path it had when the handle was
/// made, with what identified each step there.
///
/// A step into a stack's route names the hosting screen; a step into tabs names the tab by the
/// root screen of its stack (tabs of tabs go by index). Resolving follows each step to the same
/// screen or tab, wherever it has moved in its stack or tab bar (screens inserted below it, tabs
/// reordered), and fails when it is no longer there, so a handle never acts on whatever now
/// sits at its old index. A screen that had a twin (the same identity, also hosting a flow) when
/// the handle was made is only looked for at its own index, since its twin cannot be told from
/// it; one that has twins now is not looked for at all.
struct FlowAnchor {
  /// One step of the path, with the identity found there.
  enum Step {
    /// Into the child of the route showing `host`, which was at `index`; `unique` when no other
    /// route of its stack had the same identity then, so that it may be looked for elsewhere.
    case route(index: Int, host: ScreenIdentity, unique: Bool)
    /// Into the tab whose stack's root screen is `root` (`nil` for tabs of tabs), which was at
    /// `index`; `unique` as for a route.
    case tab(index: Int, root: ScreenIdentity?, unique: Bool)
    /// Nowhere: the handle was asked for a flow that was not there.
    case nowhere
  }

  /// The kind of coordinator the handle works on.
  let kind: CoordinatorKind
  /// The steps, outermost first.
  let steps: [Step]
  /// Where the flow was when the handle was made, for messages.
  let origin: CoordinatorPath

  /// The anchor of the top coordinator.
  static func top(_ kind: CoordinatorKind) -> FlowAnchor {
    FlowAnchor(kind: kind, steps: [], origin: .top)
  }

  /// The anchor of the flow one `step` below this one's, identified in `state`. A step that
  /// finds nothing in `state` gives an anchor that never resolves.
  func appending<Screen>(_ step: PathStep, kind: CoordinatorKind, in state: Coordinator<Screen>) -> FlowAnchor {
    let path = origin.appending(step)
    let parent = resolve(in: state).flatMap { try? state.coordinator(at: $0) }
    let found: Step
    switch (step, parent) {
    case (.route(let index), .stack(let routes)?) where routes.indices.contains(index) && routes[index].child != nil:
      let host = ScreenIdentity(routes[index].screen)
      let alike = routes.count(where: { $0.child != nil && ScreenIdentity($0.screen) == host })
      found = .route(index: index, host: host, unique: alike == 1)
    case (.tab(let index), .tabs(let tabs, _)?) where tabs.indices.contains(index):
      let root = Self.rootIdentity(of: tabs[index])
      let alike = tabs.count(where: { Self.rootIdentity(of: $0) == root })
      found = .tab(index: index, root: root, unique: root != nil && alike == 1)
    default:
      found = .nowhere
    }
    return FlowAnchor(kind: kind, steps: steps + [found], origin: path)
  }

  /// The flow's path in `state`, or `nil` when the flow is gone.
  func resolve<Screen>(in state: Coordinator<Screen>) -> CoordinatorPath? {
    locate(in: state)?.path
  }

  /// The flow's path in `state` and its coordinator there, found in one walk down the tree, or
  /// `nil` when the flow is gone.
  func locate<Screen>(in state: Coordinator<Screen>) -> (path: CoordinatorPath, coordinator: Coordinator<Screen>)? {
    var node = state
    var path: [PathStep] = []
    for step in steps {
      switch (step, node) {
      case (.route(let index, let host, let unique), .stack(let routes)):
        let hosts = { (route: Route<Screen>) in route.child != nil && ScreenIdentity(route.screen) == host }
        guard
          let found = routes.indices.contains(index) && hosts(routes[index])
            ? index : unique ? Self.onlyIndex(in: routes, where: hosts) : nil,
          let child = routes[found].child
        else { return nil }
        path.append(.route(found))
        node = child
      case (.tab(let index, let root, let unique), .tabs(let tabs, _)):
        let found: Int?
        if let root {
          let isIt = { (tab: Coordinator<Screen>) in Self.rootIdentity(of: tab) == root }
          found =
            tabs.indices.contains(index) && isIt(tabs[index])
            ? index : unique ? Self.onlyIndex(in: tabs, where: isIt) : nil
        } else {
          found = tabs.indices.contains(index) ? index : nil
        }
        guard let found else { return nil }
        path.append(.tab(found))
        node = tabs[found]
      default:
        return nil
      }
    }
    return node.kind == kind ? (CoordinatorPath(path), node) : nil
  }

  /// The index of the one element that matches; `nil` when none does, or when several do (the
  /// flow cannot be told from another that looks the same: it counts as gone).
  private static func onlyIndex<Element>(in elements: [Element], where matches: (Element) -> Bool) -> Int? {
    guard let first = elements.firstIndex(where: matches) else { return nil }
    return elements[(first + 1)...].contains(where: matches) ? nil : first
  }

  private static func rootIdentity<Screen>(of tab: Coordinator<Screen>) -> ScreenIdentity? {
    tab.routes?.first.map { ScreenIdentity($0.screen) }
  }
}
