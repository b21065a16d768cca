/// Why an operation was rejected: which operation, where, and what about the state forbade it.
///
/// A rejected operation changes nothing, so this is all a caller needs to report the mistake
/// or to decide what to do instead; the description is written for the person reading a log.
public struct NavigationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The wire-format name of the rejected operation.
  public var operation: String
  /// Where it was applied.
  public var path: CoordinatorPath
  /// What forbade it.
  public var reason: Reason

  /// Creates an error.
  package init(operation: String, path: CoordinatorPath, reason: Reason) {
    self.operation = operation
    self.path = path
    self.reason = reason
  }

  /// The ways an operation can be impossible.
  public enum Reason: Error, Hashable, Sendable {
    /// The session has no state yet, and only `start` can give it one.
    case notStarted
    /// `start` on a session that already has a state.
    case alreadyStarted
    /// `start` carries a path; it always sets the whole tree.
    case startWithPath
    /// Step `stepIndex` of the path leads nowhere.
    case pathNotFound(stepIndex: Int, problem: PathProblem)
    /// A stack operation at tabs, or a tab operation at a stack.
    case wrongCoordinatorKind(expected: CoordinatorKind, found: CoordinatorKind)
    /// A push where the top navigation context (route `contextIndex`) has no navigation.
    case noNavigation(contextIndex: Int, contextStyle: RouteStyle)
    /// A `count` below 1.
    case invalidCount(Int)
    /// Removing `count` routes from a stack of `routeCount` would remove its root.
    case wouldRemoveRoot(count: Int, routeCount: Int)
    /// An index outside the stack or the tabs.
    case indexOutOfRange(index: Int, count: Int)
    /// A pop that would remove route `index`, which is not a push.
    case notAPush(index: Int, style: RouteStyle)
    /// A dismiss of more presentation layers than there are.
    case notEnoughPresented(requested: Int, available: Int)
    /// A state, routes or child that is not well-formed.
    case invalidStructure(StructureError)
    /// The state would pass one of the wire format's limits on a tree (the store's check).
    case treeTooLarge(TreeLimit)
    /// A lifecycle event (`background`, `foreground`, `end`) with a path: it is about the app,
    /// not a place in its navigation.
    case lifecycleWithPath
    /// An event after the session's `end`.
    case sessionEnded
    /// `background` while the app is already in the background, or `foreground` while it is
    /// already in the foreground.
    case alreadyIn(SessionPhase)
    /// A `start` that restores `source`, which the store holds, with a state that cannot come
    /// from that session's state at that seq: the coordinator at `at` does what `problem` says,
    /// where a restore keeps its source's shape, less what it drops.
    case restoreDoesNotFitSource(source: SessionLink, at: CoordinatorPath, problem: String)
  }

  /// How a path fails to lead to a coordinator.
  public enum PathProblem: Hashable, Sendable {
    /// A `route` step past the end of the stack.
    case routeOutOfRange(index: Int, routeCount: Int)
    /// A `route` step to a route that hosts no child coordinator.
    case noChild(routeIndex: Int)
    /// A `tab` step past the last tab.
    case tabOutOfRange(index: Int, tabCount: Int)
    /// A `route` step at tabs, or a `tab` step at a stack.
    case stepDoesNotFit(step: PathStep, found: CoordinatorKind)
  }

  public var description: String {
    "\(operation) at \(path) rejected: \(reason)"
  }
}

extension NavigationError.Reason: CustomStringConvertible {
  public var description: String {
    switch self {
    case .notStarted:
      "the session has no state yet; its first operation must be start"
    case .alreadyStarted:
      "the session has already started; start may only be its first operation"
    case .startWithPath:
      "start sets the whole tree and takes no path"
    case .pathNotFound(let stepIndex, let problem):
      "step \(stepIndex + 1) of the path leads nowhere: \(problem)"
    case .wrongCoordinatorKind(let expected, let found):
      "this operation needs a \(expected) coordinator, but the coordinator there is \(found)"
    case .noNavigation(let contextIndex, let contextStyle):
      "route \(contextIndex) (a \(contextStyle.name)) is the top navigation context and has no navigation "
        + "(withNavigation false), so nothing can be pushed on it; present a screen with navigation instead"
    case .invalidCount(let count):
      "count must be at least 1, not \(count)"
    case .wouldRemoveRoot(let count, let routeCount):
      "removing \(count) route\(count == 1 ? "" : "s") from a stack of \(routeCount) would remove its root"
    case .indexOutOfRange(let index, let count):
      "index \(index) is out of range (valid: 0...\(count - 1))"
    case .notAPush(let index, let style):
      "route \(index) is a \(style.name), not a push; pop only removes pushed screens (use dismiss or goBack)"
    case .notEnoughPresented(let requested, let available):
      "cannot dismiss \(requested) presentation layer\(requested == 1 ? "" : "s"): "
        + "\(available == 0 ? "nothing is" : available == 1 ? "only 1 is" : "only \(available) are") presented"
    case .invalidStructure(let error):
      "\(error)"
    case .treeTooLarge(let limit):
      "the state would pass the wire format's limit of \(limit)"
    case .lifecycleWithPath:
      "background, foreground and end are about the app, not a place in its navigation, and take no path"
    case .sessionEnded:
      "the session has ended; nothing may follow its end"
    case .alreadyIn(let phase):
      "the app is already in the \(phase.rawValue)"
    case .restoreDoesNotFitSource(let source, let path, let problem):
      "the start restores session \(source.session) at seq \(source.seq), but "
        + (path.isTop ? "its top coordinator" : "its coordinator at \(path)")
        + " \(problem); a restore keeps the shape of the state it restores, less the routes it drops"
    }
  }
}

extension NavigationError.PathProblem: CustomStringConvertible {
  public var description: String {
    switch self {
    case .routeOutOfRange(let index, let routeCount):
      "route \(index) does not exist (the stack has \(routeCount) route\(routeCount == 1 ? "" : "s"))"
    case .noChild(let routeIndex):
      "route \(routeIndex) hosts no child coordinator"
    case .tabOutOfRange(let index, let tabCount):
      "tab \(index) does not exist (there \(tabCount == 1 ? "is 1 tab" : "are \(tabCount) tabs"))"
    case .stepDoesNotFit(let step, let found):
      "a '\(step)' step cannot enter a \(found) coordinator"
    }
  }
}
