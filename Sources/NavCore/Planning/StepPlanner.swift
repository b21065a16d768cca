/// Planning a restore or deep link as legal steps.
///
/// For one stack this is FlowStacks' step calculation, with the root at index 0 and the root's
/// `withNavigation` counted as content:
/// 1. Step 0 swaps contents in place wherever the structure is shared: routes up to the first
///    index whose style differs, and, inside them, children and tabs of the same kind.
/// 2. Presentation layers above that index are dismissed one per step, each with the pushes on
///    it (all in one step under `navigation-stack-17`).
/// 3. The pushes that remain above that index are popped in one step.
/// 4. The target's routes are added one per step; under `navigation-stack` and
///    `navigation-stack-17`, a push joins the step before it (never step 0).
///
/// For a tree, the order is what a host can show:
/// - Removals in a stack come before the changes inside the children of the routes it keeps,
///   which come before the routes it adds. Anything hidden is cleared away first, and a layer
///   exists before screens appear inside it.
/// - A route that appears, or a child or tab that appears, appears with each of its stacks at its
///   root only (its `launchState`). Its contents are then built inside it, before anything is
///   added on top of it.
/// - In tabs, what is hidden is judged by the target. When the selection moves, the tab selected
///   at the start first loses what covers it (the sheets and covers the target does not keep:
///   the selection cannot move under them), while it is visible. Then the selection moves (or
///   the tab set changes, together with the selection), and the target's selected tab is built.
///   What the user will not see costs no delay: the rest of the tab selected at the start, the
///   tabs selected neither at the start nor at the end, and the tabs that appear unselected, are
///   built after everything else of the plan, once the user's screen is there.
extension Coordinator {
  /// The steps from `start` to `end` for `host`. The first step changes contents only, each
  /// step is one legal transition from the one before (`isLegalTransition`), and the last is
  /// `end`.
  public static func plan(from start: Coordinator, to end: Coordinator, host: HostProfile = .default) throws(PlanError)
    -> StepPlan<AppScreen>
  {
    guard start.kind == end.kind else {
      throw .topCoordinatorKindChanged(from: start.kind, to: end.kind)
    }
    if let error = start.structureError() { throw .malformed(which: "start", error) }
    if let error = end.structureError() { throw .malformed(which: "target", error) }
    var planner = StepPlanner(host: host, firstStep: PlanningContent.swapped(start, toward: end))
    planner.transform(at: .top, to: end)
    planner.buildHiddenTabs()
    return StepPlan(steps: planner.steps, host: host)
  }
}

/// Why no plan connects two states.
public enum PlanError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The top coordinator would change kind, which a host cannot do.
  case topCoordinatorKindChanged(from: CoordinatorKind, to: CoordinatorKind)
  /// One of the two states is not well-formed.
  case malformed(which: String, StructureError)

  public var description: String {
    switch self {
    case .topCoordinatorKindChanged(let from, let to):
      "cannot plan from a \(from) coordinator to a \(to) coordinator: the top coordinator never changes kind"
    case .malformed(let which, let error):
      "the \(which) state is malformed: \(error)"
    }
  }
}

/// Step 0: contents changed in place wherever start and target share structure.
enum PlanningContent {
  static func swapped<AppScreen>(_ start: Coordinator<AppScreen>, toward end: Coordinator<AppScreen>) -> Coordinator<
    AppScreen
  > {
    switch (start, end) {
    case (.stack(var routes), .stack(let target)):
      for index in 0..<PlanningStack.sharedPrefixLength(routes, target) {
        routes[index].screen = target[index].screen
        if index == 0 { routes[0].style = target[0].style }  // the root's withNavigation is content
        if let child = routes[index].child, let targetChild = target[index].child, child.kind == targetChild.kind {
          routes[index].child = swapped(child, toward: targetChild)
        }
      }
      return .stack(routes)
    case (.tabs(var tabs, let selected), .tabs(let targetTabs, _)):
      for index in 0..<min(tabs.count, targetTabs.count) where tabs[index].kind == targetTabs[index].kind {
        tabs[index] = swapped(tabs[index], toward: targetTabs[index])
      }
      return .tabs(tabs, selected: selected)
    default:
      return start
    }
  }
}

/// What must go from a tab before the selection moves away from it: the presentation layers
/// its target does not keep, at any depth of what is on screen. Pushes stay, to be popped or
/// built on once the tab is hidden.
enum PlanningUncovering {
  /// `start` without the presented layers `target` does not keep (all of them, for flows the
  /// target drops or changes the kind of).
  static func uncovered<AppScreen>(_ start: Coordinator<AppScreen>, toward target: Coordinator<AppScreen>)
    -> Coordinator<AppScreen>
  {
    switch (start, target) {
    case (.stack(let routes), .stack(let targetRoutes)):
      let kept = PlanningStack.sharedPrefixLength(routes, targetRoutes)
      let firstLayer = (kept..<routes.count).first(where: { routes[$0].isPresented }) ?? routes.count
      var shown = Array(routes[..<firstLayer])
      for index in shown.indices {
        guard let child = shown[index].child else { continue }
        let targetChild = index < kept ? targetRoutes[index].child : nil
        if let targetChild, targetChild.kind == child.kind {
          shown[index].child = uncovered(child, toward: targetChild)
        } else {
          shown[index].child = uncovered(child, toward: child.launchState)
        }
      }
      return .stack(shown)
    case (.tabs(var tabs, let selected), .tabs(let targetTabs, _)):
      // Only the tab on screen can be covered.
      guard tabs.indices.contains(selected) else { return start }
      if targetTabs.indices.contains(selected), targetTabs[selected].kind == tabs[selected].kind {
        tabs[selected] = uncovered(tabs[selected], toward: targetTabs[selected])
      } else {
        tabs[selected] = uncovered(tabs[selected], toward: tabs[selected].launchState)
      }
      return .tabs(tabs, selected: selected)
    default:
      return uncovered(start, toward: start.launchState)
    }
  }
}

enum PlanningStack {
  /// How many routes, from the root, keep their style (FlowStacks' first divergent index). The
  /// root always counts as kept: its `withNavigation` is content.
  static func sharedPrefixLength<AppScreen>(_ routes: [Route<AppScreen>], _ target: [Route<AppScreen>]) -> Int {
    let limit = min(routes.count, target.count)
    guard limit > 0 else { return 0 }
    return (1..<limit).first(where: { routes[$0].style != target[$0].style }) ?? limit
  }
}

/// Walks the tree from step 0 to the target, recording a step after each structural change.
struct StepPlanner<AppScreen: NavigationScreen> {
  /// What the last step changed, so that a push can join a step of its own stack only.
  enum Change: Equatable {
    case routes(of: CoordinatorPath)
    case elsewhere
  }

  let host: HostProfile
  private var recorded: [Coordinator<AppScreen>]
  private var current: Coordinator<AppScreen>
  private var lastChange: Change = .elsewhere
  /// Pushes that joined the last step are written into it only when the run of them ends, so
  /// `current` stays uniquely owned and each push is appended in place.
  private var lastStepIsStale = false
  /// Tabs the user does not see, with their targets: built after everything they can see.
  private var hiddenTabs: [(path: CoordinatorPath, target: Coordinator<AppScreen>)] = []
  /// Whether the plan is building them now.
  private var buildingHiddenTabs = false

  /// The steps so far, the last one brought up to date.
  var steps: [Coordinator<AppScreen>] {
    mutating get {
      flushJoinedPushes()
      return recorded
    }
  }

  init(host: HostProfile, firstStep: Coordinator<AppScreen>) {
    self.host = host
    self.current = firstStep
    self.recorded = [firstStep]
  }

  private mutating func record(_ change: Change) {
    flushJoinedPushes()
    recorded.append(current)
    lastChange = change
  }

  private mutating func flushJoinedPushes() {
    guard lastStepIsStale else { return }
    recorded[recorded.count - 1] = current
    lastStepIsStale = false
  }

  private func node(at path: CoordinatorPath) -> Coordinator<AppScreen>? {
    try? current.coordinator(at: path)
  }

  private mutating func replace(at path: CoordinatorPath, with coordinator: Coordinator<AppScreen>) {
    flushJoinedPushes()
    current.modify(at: path.steps[...]) { $0 = coordinator }
  }

  /// Builds the tabs put aside as hidden, in the order they were met (and the hidden tabs inside
  /// them, after them). Their paths still lead to them: every later step only adds routes on
  /// top of stacks or changes what is inside them.
  mutating func buildHiddenTabs() {
    buildingHiddenTabs = true
    var next = 0
    while next < hiddenTabs.count {
      let (path, target) = hiddenTabs[next]
      next += 1
      transform(at: path, to: target)
    }
  }

  /// Brings the coordinator at `path` (of the same kind as `target`) to `target`.
  mutating func transform(at path: CoordinatorPath, to target: Coordinator<AppScreen>) {
    guard let node = node(at: path), node != target else { return }
    switch (node, target) {
    case (.stack(let routes), .stack(let targetRoutes)):
      transformStack(at: path, from: routes, to: targetRoutes)
    case (.tabs(let tabs, let selected), .tabs(let targetTabs, let targetSelected)):
      transformTabs(at: path, from: tabs, selected: selected, to: targetTabs, selected: targetSelected)
    default:
      break  // callers pair coordinators of the same kind
    }
  }

  private mutating func transformStack(
    at path: CoordinatorPath, from start: [Route<AppScreen>], to target: [Route<AppScreen>]
  ) {
    let kept = PlanningStack.sharedPrefixLength(start, target)
    let firstLayer = (kept..<start.count).first(where: { start[$0].isPresented }) ?? start.count
    var routes = start

    // Dismiss the presentation layers above the kept routes, then pop the remaining pushes.
    if host.dismissesManyAtOnce {
      if routes.count > firstLayer {
        routes.removeSubrange(kept...)
        replace(at: path, with: .stack(routes))
        record(.routes(of: path))
      }
    } else {
      while routes.count > firstLayer {
        var removed = routes.removeLast()
        while !removed.isPresented, routes.count > firstLayer {
          removed = routes.removeLast()
        }
        replace(at: path, with: .stack(routes))
        record(.routes(of: path))
      }
    }
    if routes.count > kept {
      while routes.count > kept, routes.last?.style.isPush == true {
        routes.removeLast()
      }
      replace(at: path, with: .stack(routes))
      record(.routes(of: path))
    }

    // Changes inside the children of the kept routes.
    for index in 0..<kept {
      let childPath = path.appending(.route(index))
      let child = node(at: path)?.routes?[index].child
      let targetChild = target[index].child
      guard child != targetChild else { continue }
      if let child, let targetChild, child.kind == targetChild.kind {
        transform(at: childPath, to: targetChild)
        continue
      }
      // The child appears, disappears or changes kind: one step, then build it up.
      guard case .stack(var withChild)? = node(at: path) else { continue }
      withChild[index].child = targetChild?.launchState
      replace(at: path, with: .stack(withChild))
      record(.elsewhere)
      if let targetChild { transform(at: childPath, to: targetChild) }
    }

    // Add the target's routes, one per step, each built up before the next covers it. The
    // stack is grown in place, so a restore of n routes costs O(n) here, not O(n²).
    for index in kept..<target.count {
      var route = target[index]
      route.child = route.child?.launchState
      let joinsLastStep =
        host.mergesPushes && route.style.isPush && recorded.count > 1 && lastChange == .routes(of: path)
      if !joinsLastStep { flushJoinedPushes() }
      current.modify(at: path.steps[...]) { coordinator in
        coordinator.perform(.append(route))
      }
      if joinsLastStep {
        lastStepIsStale = true
      } else {
        record(.routes(of: path))
      }
      if let targetChild = target[index].child {
        transform(at: path.appending(.route(index)), to: targetChild)
      }
    }
  }

  private mutating func transformTabs(
    at path: CoordinatorPath, from start: [Coordinator<AppScreen>], selected: Int,
    to target: [Coordinator<AppScreen>], selected targetSelected: Int
  ) {
    let shared = min(start.count, target.count)
    func survives(_ index: Int) -> Bool { index < shared && start[index].kind == target[index].kind }
    let tabSetChanges = start.count != target.count || (0..<shared).contains { !survives($0) }

    // Only unselected tabs change kind: a change of the tab set the user cannot see. The
    // selected tab is built now; the set changes with the hidden tabs, at the end.
    if tabSetChanges, !buildingHiddenTabs, selected == targetSelected, start.count == target.count,
      survives(selected)
    {
      transform(at: path.appending(.tab(selected)), to: target[selected])
      hiddenTabs.append((path, .tabs(target, selected: targetSelected)))
      return
    }

    // The tab on screen loses what covers it first, while it is on screen; the rest of it,
    // hidden once the selection moves, and the tabs never on screen wait until the end.
    if survives(selected), selected != targetSelected {
      let tabPath = path.appending(.tab(selected))
      if let now = node(at: tabPath) {
        transform(at: tabPath, to: PlanningUncovering.uncovered(now, toward: target[selected]))
      }
      hiddenTabs.append((tabPath, target[selected]))
    }
    for index in 0..<shared where index != selected && index != targetSelected && survives(index) {
      hiddenTabs.append((path.appending(.tab(index)), target[index]))
    }

    // The selection moves, or the tab set changes together with it.
    if tabSetChanges {
      guard case .tabs(let tabs, _)? = node(at: path) else { return }
      let newTabs = target.indices.map { survives($0) ? tabs[$0] : target[$0].launchState }
      replace(at: path, with: .tabs(newTabs, selected: targetSelected))
      record(.elsewhere)
    } else if selected != targetSelected {
      guard case .tabs(let tabs, _)? = node(at: path) else { return }
      replace(at: path, with: .tabs(tabs, selected: targetSelected))
      record(.elsewhere)
    }

    // The selected tab, now on screen; the tabs that appeared unselected wait for the end.
    transform(at: path.appending(.tab(targetSelected)), to: target[targetSelected])
    for index in target.indices where index != targetSelected && !survives(index) {
      hiddenTabs.append((path.appending(.tab(index)), target[index]))
    }
  }
}
