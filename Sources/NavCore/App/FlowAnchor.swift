/// How a flow handle finds its flow in the current tree: the path it had when the handle was
/// made, with what identified each step there.
///
/// A step into a stack's route names the hosting screen; a step into tabs names the tab by the
/// root screen of its stack (tabs of tabs go by index). Resolving follows each step to the same
/// screen or tab, wherever it has moved in its stack or tab bar (screens inserted below it, tabs
/// reordered), and fails when it is no longer there, so a handle never acts on whatever now
/// sits at its old index. A screen that had a twin (the same identity, also hosting a flow) when
/// the handle was made is only looked for at its own index, since its twin cannot be told from
/// it; one that has twins now is not looked for at all. A host screen that `updateScreen` gave a
/// new value is found under either (`HostRenames`).
struct FlowAnchor {
  /// One step of the path, with the identity found there.
  enum Step {
    /// Into the child of the route showing `host`, which was at `index`; `unique` when no other
    /// route of its stack had the same identity then, so that it may be looked for elsewhere.
    case route(index: Int, host: ScreenIdentity, unique: Bool)
    /// Into the tab whose stack's root screen is `root` (`nil` for tabs of tabs), which was at
    /// `index`; `unique` as for a route.
    case tab(index: Int, root: ScreenIdentity?, unique: Bool)
    /// Nowhere: the handle was asked for a flow that was not there; `asked` says where it was
    /// looked for, for the message.
    case nowhere(asked: String)
    /// Below a flow that was gone already when the handle was made.
    case belowGone
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

  /// The anchor of a flow asked for by a screen this flow does not show: it never resolves.
  func missing(_ kind: CoordinatorKind, hostedBy screen: some NavigationScreen) -> FlowAnchor {
    FlowAnchor(
      kind: kind, steps: steps + [.nowhere(asked: "hosted by \(screen) in \(place)")],
      origin: origin)
  }

  /// This flow in words, for messages: `the top stack`, `the tabs at path [route 0]`.
  private var place: String {
    origin == .top ? "the top \(kind)" : "the \(kind) at \(origin)"
  }

  /// The error a call through this anchor fails with when it finds no flow: never there, or
  /// gone since the handle was made.
  var missing: NavigationModelError {
    for case .nowhere(let asked) in steps { return .flowNotFound(kind: kind, asked: asked) }
    return .flowGone(kind: kind, path: origin)
  }

  /// The anchor of the flow one `step` below this one's, identified in `state`. A step that
  /// finds nothing in `state` gives an anchor that never resolves.
  func appending<AppScreen>(
    _ step: PathStep, kind: CoordinatorKind, in state: Coordinator<AppScreen>, renames: HostRenames
  ) -> FlowAnchor {
    let path = origin.appending(step)
    let parent = resolve(in: state, renames: renames).flatMap { try? state.coordinator(at: $0) }
    let found: Step
    switch (step, parent) {
    case (.route(let index), .stack(let routes)?)
    where routes.indices.contains(index) && routes[index].child?.kind == kind:
      let host = ScreenIdentity(routes[index].screen)
      let alike = routes.count(where: { $0.child != nil && ScreenIdentity($0.screen) == host })
      found = .route(index: index, host: host, unique: alike == 1)
    case (.tab(let index), .tabs(let tabs, _)?) where tabs.indices.contains(index) && tabs[index].kind == kind:
      let root = Self.rootIdentity(of: tabs[index])
      let alike = tabs.count(where: { Self.rootIdentity(of: $0) == root })
      found = .tab(index: index, root: root, unique: root != nil && alike == 1)
    case (_, nil):
      found = .belowGone
    case (.route(let index), .stack(let routes)?):
      let hosted = routes.indices.contains(index) ? routes[index].child.map { " (it hosts \($0.kind))" } : nil
      found = .nowhere(asked: "hosted by route \(index) of \(place)" + (hosted ?? ""))
    case (.tab(let index), .tabs(let tabs, _)?):
      let other = tabs.indices.contains(index) ? " (it is \(tabs[index].kind))" : ""
      found = .nowhere(asked: "in tab \(index) of \(place)" + other)
    case (.route(let index), _):
      found = .nowhere(asked: "hosted by route \(index) of \(place), which is not a stack")
    case (.tab(let index), _):
      found = .nowhere(asked: "in tab \(index) of \(place), which is not tabs")
    }
    return FlowAnchor(kind: kind, steps: steps + [found], origin: path)
  }

  /// The flow's path in `state`, or `nil` when the flow is gone.
  func resolve<AppScreen>(in state: Coordinator<AppScreen>, renames: HostRenames) -> CoordinatorPath? {
    locate(in: state, renames: renames)?.path
  }

  /// The flow's path in `state` and its coordinator there, found in one walk down the tree, or
  /// `nil` when the flow is gone.
  func locate<AppScreen>(in state: Coordinator<AppScreen>, renames: HostRenames) -> (
    path: CoordinatorPath, coordinator: Coordinator<AppScreen>
  )? {
    var node = state
    var path: [PathStep] = []
    for step in steps {
      switch (step, node) {
      case (.route(let index, let host, let unique), .stack(let routes)):
        let renamed = renames[host]
        let hosts = { (route: Route<AppScreen>) in
          guard route.child != nil else { return false }
          let identity = ScreenIdentity(route.screen)
          return identity == host || identity == renamed
        }
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
          let renamed = renames[root]
          let isIt = { (tab: Coordinator<AppScreen>) in
            let identity = Self.rootIdentity(of: tab)
            return identity == root || (renamed != nil && identity == renamed)
          }
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

  private static func rootIdentity<AppScreen>(of tab: Coordinator<AppScreen>) -> ScreenIdentity? {
    tab.routes?.first.map { ScreenIdentity($0.screen) }
  }
}
