/// Applying operations: the one place that defines what every operation does.
///
/// The convenience API, the diff, the store and the CLI all go through here, so there is exactly
/// one implementation of each operation's semantics and of its rejections.
extension Coordinator {
  /// The state after `operation`, or the reason it is impossible. `self` is never changed.
  public func applying(_ operation: NavigationOperation<AppScreen>) throws(NavigationError) -> Coordinator {
    var next = self
    try next.apply(operation)
    return next
  }

  /// Applies `operation` in place; when it throws, `self` is exactly as it was.
  public mutating func apply(_ operation: NavigationOperation<AppScreen>) throws(NavigationError) {
    let edit = try decide(operation).edit
    modify(at: operation.path.steps[...]) { target in target.perform(edit) }
  }

  /// Whether `operation` would be accepted, without applying it.
  package func accepts(_ operation: NavigationOperation<AppScreen>) -> Bool {
    (try? decide(operation)) != nil
  }

  /// `apply(_:)`, holding the tree to the wire format's limits (`TreeLimits`): `measure` is
  /// this tree's before, and the result's once this returns. Costs what the operation adds or
  /// removes, not the tree's size. An operation that would pass a limit is rejected
  /// (`treeTooLarge`), and nothing changes.
  package mutating func apply(_ operation: NavigationOperation<AppScreen>, measure: inout TreeMeasure)
    throws(NavigationError) where AppScreen == JSONValue
  {
    let (edit, target) = try decide(operation)
    if let target {
      do throws(TreeLimit) {
        measure = try measure.after(edit, on: target, at: TreePlace(of: operation.path))
      } catch {
        throw NavigationError(operation: operation.name, path: operation.path, reason: .treeTooLarge(error))
      }
    }
    modify(at: operation.path.steps[...]) { target in target.perform(edit) }
  }

  /// The coordinator at `path`.
  public func coordinator(at path: CoordinatorPath) throws(NavigationError) -> Coordinator {
    do throws(NavigationError.Reason) {
      return try resolve(path)
    } catch {
      throw NavigationError(operation: "resolve", path: path, reason: error)
    }
  }

  /// What `operation` does, and the coordinator it does it to (`nil` when it changes nothing).
  private func decide(_ operation: NavigationOperation<AppScreen>) throws(NavigationError) -> (
    edit: Edit<AppScreen>, target: Coordinator?
  ) {
    do throws(NavigationError.Reason) {
      if case .start = operation.kind { throw NavigationError.Reason.alreadyStarted }
      if operation.isLifecycle {
        // About the app, not a place in its navigation: the state stays as it is.
        guard operation.path.isTop else { throw NavigationError.Reason.lifecycleWithPath }
        return (.unchanged, nil)
      }
      let target = try resolve(operation.path)
      return (try target.decide(operation.kind), target)
    } catch {
      throw NavigationError(operation: operation.name, path: operation.path, reason: error)
    }
  }

  private func resolve(_ path: CoordinatorPath) throws(NavigationError.Reason) -> Coordinator {
    var current = self
    for (stepIndex, step) in path.steps.enumerated() {
      switch (current, step) {
      case (.stack(let routes), .route(let index)):
        guard routes.indices.contains(index) else {
          throw .pathNotFound(stepIndex: stepIndex, problem: .routeOutOfRange(index: index, routeCount: routes.count))
        }
        guard let child = routes[index].child else {
          throw .pathNotFound(stepIndex: stepIndex, problem: .noChild(routeIndex: index))
        }
        current = child
      case (.tabs(let tabs, _), .tab(let index)):
        guard tabs.indices.contains(index) else {
          throw .pathNotFound(stepIndex: stepIndex, problem: .tabOutOfRange(index: index, tabCount: tabs.count))
        }
        current = tabs[index]
      case (.stack, .tab), (.tabs, .route):
        throw .pathNotFound(stepIndex: stepIndex, problem: .stepDoesNotFit(step: step, found: current.kind))
      }
    }
    return current
  }

  /// What `kind` does to this coordinator (the one at the operation's path).
  private func decide(_ operationKind: NavigationOperation<AppScreen>.Kind) throws(NavigationError.Reason) -> Edit<
    AppScreen
  > {
    switch operationKind {
    case .start:
      throw .alreadyStarted
    case .selectTab(let index):
      guard case .tabs(let tabs, _) = self else { throw .wrongCoordinatorKind(expected: .tabs, found: kind) }
      guard tabs.indices.contains(index) else { throw .indexOutOfRange(index: index, count: tabs.count) }
      return .select(index)
    case .setTabs(let tabs, let selected):
      guard case .tabs = self else { throw .wrongCoordinatorKind(expected: .tabs, found: kind) }
      let replacement = Coordinator.tabs(tabs, selected: selected)
      if let error = replacement.structureError() { throw .invalidStructure(error) }
      return .replaceTabs(tabs, selected: selected)
    default:
      guard case .stack(let routes) = self else { throw .wrongCoordinatorKind(expected: .stack, found: .tabs) }
      return try Self.decide(operationKind, onStack: routes)
    }
  }

  private static func decide(
    _ kind: NavigationOperation<AppScreen>.Kind, onStack routes: [Route<AppScreen>]
  ) throws(NavigationError.Reason) -> Edit<AppScreen> {
    // A stack built in code may be malformed; the operations' meaning needs a root at 0.
    guard let root = routes.first, root.style.isRoot else {
      let problem = StructureRules.stackProblem(routes) ?? .emptyStack
      throw .invalidStructure(StructureError(location: problem.field, problem: problem))
    }
    let count = routes.count
    switch kind {
    case .push(let screen, let child):
      let context = topNavigationContext(of: routes)
      guard routes[context].withNavigation else {
        throw .noNavigation(contextIndex: context, contextStyle: routes[context].style)
      }
      try checkChild(child)
      return .append(.push(screen, child: child))
    case .presentSheet(let screen, let withNavigation, let child):
      try checkChild(child)
      return .append(.sheet(screen, withNavigation: withNavigation, child: child))
    case .presentCover(let screen, let withNavigation, let child):
      try checkChild(child)
      return .append(.cover(screen, withNavigation: withNavigation, child: child))
    case .goBack(let removed):
      try checkRemovable(removed, from: count)
      return .truncate(keeping: count - removed)
    case .goBackTo(let index):
      try checkIndex(index, count: count)
      return .truncate(keeping: index + 1)
    case .goBackToRoot:
      return .truncate(keeping: 1)
    case .pop(let removed):
      try checkRemovable(removed, from: count)
      try checkAllPushes(routes, above: count - removed - 1)
      return .truncate(keeping: count - removed)
    case .popTo(let index):
      try checkIndex(index, count: count)
      try checkAllPushes(routes, above: index)
      return .truncate(keeping: index + 1)
    case .popToRoot:
      try checkAllPushes(routes, above: 0)
      return .truncate(keeping: 1)
    case .popToCurrentNavigationRoot:
      return .truncate(keeping: topNavigationContext(of: routes) + 1)
    case .dismiss(let layers):
      guard layers >= 1 else { throw .invalidCount(layers) }
      var found = 0
      for index in stride(from: count - 1, through: 1, by: -1) where routes[index].isPresented {
        found += 1
        if found == layers { return .truncate(keeping: index) }
      }
      throw .notEnoughPresented(requested: layers, available: found)
    case .dismissAll:
      guard let first = routes.indices.dropFirst().first(where: { routes[$0].isPresented }) else {
        return .unchanged
      }
      return .truncate(keeping: first)
    case .setRoutes(let replacement):
      if let error = Coordinator.stack(replacement).structureError() { throw .invalidStructure(error) }
      return .replaceRoutes(replacement)
    case .updateScreen(let index, let screen):
      try checkIndex(index, count: count)
      return .updateScreen(index: index, screen: screen)
    case .start, .selectTab, .setTabs:
      throw .wrongCoordinatorKind(expected: .tabs, found: .stack)
    case .background, .foreground, .end:
      return .unchanged  // decided before the path is resolved; here for completeness
    }
  }

  /// The index of the topmost route that is not a push: the layer a push would land in.
  static func topNavigationContext(of routes: [Route<AppScreen>]) -> Int {
    routes.lastIndex(where: { !$0.style.isPush }) ?? 0
  }

  private static func checkChild(_ child: Coordinator?) throws(NavigationError.Reason) {
    if let error = child?.structureError(location: "child") { throw .invalidStructure(error) }
  }

  private static func checkRemovable(_ removed: Int, from count: Int) throws(NavigationError.Reason) {
    guard removed >= 1 else { throw .invalidCount(removed) }
    guard removed < count else { throw .wouldRemoveRoot(count: removed, routeCount: count) }
  }

  private static func checkIndex(_ index: Int, count: Int) throws(NavigationError.Reason) {
    guard (0..<count).contains(index) else { throw .indexOutOfRange(index: index, count: count) }
  }

  /// Rejects a pop when a route above `index` is not a push, naming the topmost such route.
  private static func checkAllPushes(_ routes: [Route<AppScreen>], above index: Int) throws(NavigationError.Reason) {
    for candidate in stride(from: routes.count - 1, to: index, by: -1) where !routes[candidate].style.isPush {
      throw .notAPush(index: candidate, style: routes[candidate].style)
    }
  }
}

extension NavigationOperation {
  /// The state after this operation, for a session whose state so far is `state` (`nil` before
  /// its first event): `start` is only accepted first, and everything else only after it.
  package func apply(to state: Coordinator<AppScreen>?) throws(NavigationError) -> Coordinator<
    AppScreen
  > {
    guard let state else {
      guard case .start(let initial, _, _, _) = kind else {
        throw NavigationError(operation: name, path: path, reason: .notStarted)
      }
      guard path.isTop else { throw NavigationError(operation: name, path: path, reason: .startWithPath) }
      if let error = initial.structureError(location: "state") {
        throw NavigationError(operation: name, path: path, reason: .invalidStructure(error))
      }
      return initial
    }
    return try state.applying(self)
  }
}

extension NavigationOperation {
  /// `apply(to:)` in place, for a session's running state (`nil` before its first event): the
  /// state is edited without copying its routes when nothing else holds it. When this throws,
  /// `state` is exactly as it was. Returns the new state.
  @discardableResult
  package func apply(toSession state: inout Coordinator<AppScreen>?) throws(NavigationError)
    -> Coordinator<AppScreen>
  {
    guard var current = state else {
      let initial = try apply(to: nil)
      state = initial
      return initial
    }
    // Drop the optional's reference, so `current` is the only one and is edited in place.
    state = nil
    defer { state = current }
    try current.apply(self)
    return current
  }
}

/// The untyped operations, compiled for `JSONValue` screens here in NavCore.
///
/// Generic code called from another module runs unspecialized, looking up type metadata for
/// `Route<Screen>` and friends at every step; the store applies every event it appends or
/// replays, and that lookup was a tenth of an import's time. These overloads are chosen for
/// `AnyOperation` values and run the specialized build of the same implementation.
extension NavigationOperation where AppScreen == JSONValue {
  /// `apply(to:)` for untyped screens (same meaning, specialized).
  package func apply(to state: AnyCoordinator?) throws(NavigationError) -> AnyCoordinator {
    try applyGenerically(to: state)
  }

  /// `apply(toSession:)` for untyped screens (same meaning, specialized).
  @discardableResult
  package func apply(toSession state: inout AnyCoordinator?) throws(NavigationError) -> AnyCoordinator {
    try applyGenericallyInPlace(toSession: &state)
  }
}

extension NavigationOperation where AppScreen == JSONValue {
  /// `apply(toSession:)`, holding the state to the wire format's tree limits: `measure` is the
  /// state's (zero before its first event), and the new state's once this returns. What the
  /// store runs for every event it appends or verifies.
  @discardableResult
  package func apply(toSession state: inout AnyCoordinator?, measure: inout TreeMeasure) throws(NavigationError)
    -> AnyCoordinator
  {
    guard var current = state else {
      let initial = try apply(to: nil)
      do throws(TreeLimit) {
        measure = try initial.checkLimits()
      } catch {
        throw NavigationError(operation: name, path: path, reason: .treeTooLarge(error))
      }
      state = initial
      return initial
    }
    // Drop the optional's reference, so `current` is the only one and is edited in place.
    state = nil
    defer { state = current }
    try current.apply(self, measure: &measure)
    return current
  }
}

extension NavigationOperation {
  fileprivate func applyGenerically(to state: Coordinator<AppScreen>?) throws(NavigationError) -> Coordinator<AppScreen>
  {
    try apply(to: state)
  }

  fileprivate func applyGenericallyInPlace(toSession state: inout Coordinator<AppScreen>?) throws(NavigationError)
    -> Coordinator<AppScreen>
  {
    try apply(toSession: &state)
  }
}
