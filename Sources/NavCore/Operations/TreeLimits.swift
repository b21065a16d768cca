import NavJSON

/// One of the wire format's limits on the tree a session's state may hold, with its value.
///
/// Every limit is well above what an app shows: they exist so that one session's history,
/// sent by anyone who holds an app's ingest token, cannot make its replay, its snapshots or a
/// collector's memory grow without bound.
public enum TreeLimit: Error, Hashable, Sendable, CustomStringConvertible {
  /// Routes in the whole tree, every flow and tab included.
  case routes(Int)
  /// Routes in one stack.
  case routesInOneStack(Int)
  /// Coordinators nested in one another, the top one counted as 1.
  case depth(Int)
  /// Bytes of the screens' canonical JSON in the whole tree.
  case screenBytes(Int)
  /// Levels of JSON arrays and objects in the state as the wire format writes it (two fewer
  /// than a reader takes), so every stored state reads back, and so does a `start` holding it.
  case jsonNesting(Int)

  public var description: String {
    switch self {
    case .routes(let limit): "\(limit.formatted) routes in all"
    case .routesInOneStack(let limit): "\(limit.formatted) routes in one stack"
    case .depth(let limit): "coordinators nested \(limit) deep"
    case .screenBytes(let limit): "\(limit.formatted) bytes of screens' JSON in all"
    case .jsonNesting(let limit): "JSON nested \(limit) levels deep"
    }
  }
}

/// The wire format's limits on a state (`spec/wire-format.md`, "Limits"), checked by the store on
/// every event it appends or verifies, in time proportional to what the event adds or removes.
package enum TreeLimits {
  package static let routes = 10_000
  package static let routesInOneStack = 1_000
  package static let depth = 64
  package static let screenBytes = 4 * 1024 * 1024
  /// A `start` holds its state two levels down in an event's line (the event, its operation).
  package static let jsonNesting = JSONParser.maximumDepth - 2
}

/// What the limits count of a tree that is not local to one place in it: its routes and the
/// bytes of its screens. A session's running state carries its measure, so an event costs what
/// it changes, not the size of the tree.
package struct TreeMeasure: Hashable, Sendable {
  /// Routes, in every stack of the tree.
  package var routes = 0
  /// Bytes of every screen's canonical JSON.
  package var screenBytes = 0

  package init(routes: Int = 0, screenBytes: Int = 0) {
    self.routes = routes
    self.screenBytes = screenBytes
  }

  static func + (left: TreeMeasure, right: TreeMeasure) -> TreeMeasure {
    TreeMeasure(routes: left.routes + right.routes, screenBytes: left.screenBytes + right.screenBytes)
  }

  static func - (left: TreeMeasure, right: TreeMeasure) -> TreeMeasure {
    TreeMeasure(routes: left.routes - right.routes, screenBytes: left.screenBytes - right.screenBytes)
  }

  /// Throws the first total limit this measure passes.
  func checkTotals() throws(TreeLimit) {
    if routes > TreeLimits.routes { throw .routes(TreeLimits.routes) }
    if screenBytes > TreeLimits.screenBytes { throw .screenBytes(TreeLimits.screenBytes) }
  }
}

/// Where a coordinator sits in the tree, as the local limits see it: how deep among
/// coordinators, and at which level of JSON nesting its object is written.
struct TreePlace {
  /// 1 for the top coordinator.
  var depth: Int
  /// 1 for the top coordinator's object.
  var level: Int

  static let top = TreePlace(depth: 1, level: 1)

  /// The place of the coordinator at `path` (which must resolve): a route's child is written
  /// three levels down (the routes array, the route, the child), a tab two (the tabs array, the tab).
  init(of path: CoordinatorPath) {
    depth = 1 + path.steps.count
    level =
      1
      + path.steps.reduce(0) { levels, step in
        if case .route = step { return levels + 3 }
        return levels + 2
      }
  }

  private init(depth: Int, level: Int) {
    self.depth = depth
    self.level = level
  }

  /// The level of a route object of a stack at this place.
  var routeLevel: Int { level + 2 }

  /// The place of the child coordinator of a route at `routeLevel`.
  func child(ofRouteAt routeLevel: Int) -> TreePlace { TreePlace(depth: depth + 1, level: routeLevel + 1) }

  /// The place of a tab of tabs at this place.
  var tab: TreePlace { TreePlace(depth: depth + 1, level: level + 2) }
}

extension Coordinator where AppScreen == JSONValue {
  /// The measure of this tree standing at `place`, throwing the first local limit it passes
  /// (a stack too long, nesting too deep); the totals are the caller's to check.
  func measured(at place: TreePlace) throws(TreeLimit) -> TreeMeasure {
    if place.depth > TreeLimits.depth { throw .depth(TreeLimits.depth) }
    // The coordinator's object and its array of routes or tabs.
    if place.level + 1 > TreeLimits.jsonNesting { throw .jsonNesting(TreeLimits.jsonNesting) }
    var measure = TreeMeasure()
    switch self {
    case .stack(let routes):
      if routes.count > TreeLimits.routesInOneStack { throw .routesInOneStack(TreeLimits.routesInOneStack) }
      for route in routes { measure = measure + (try route.measured(at: place.routeLevel, in: place)) }
    case .tabs(let tabs, _):
      for tab in tabs { measure = measure + (try tab.measured(at: place.tab)) }
    }
    return measure
  }

  /// The measure of this tree, unchecked: what a state read back from the store holds.
  package var measure: TreeMeasure {
    switch self {
    case .stack(let routes): routes.reduce(TreeMeasure()) { $0 + $1.measure }
    case .tabs(let tabs, _): tabs.reduce(TreeMeasure()) { $0 + $1.measure }
    }
  }

  /// Throws the first limit this whole tree passes, as a session's state.
  package func checkLimits() throws(TreeLimit) -> TreeMeasure {
    let measure = try measured(at: .top)
    try measure.checkTotals()
    return measure
  }
}

extension Route where AppScreen == JSONValue {
  /// The measure of this route, its flow included, written at JSON level `level` in a stack at
  /// `place`, throwing the first local limit it passes.
  func measured(at level: Int, in place: TreePlace) throws(TreeLimit) -> TreeMeasure {
    let screen = CanonicalJSON.size(of: self.screen)
    // The route's object, and inside it the screen's arrays and objects.
    if level + screen.nesting > TreeLimits.jsonNesting { throw .jsonNesting(TreeLimits.jsonNesting) }
    var measure = TreeMeasure(routes: 1, screenBytes: screen.bytes)
    if let child { measure = measure + (try child.measured(at: place.child(ofRouteAt: level))) }
    return measure
  }

  /// The measure of this route and its flow, unchecked.
  var measure: TreeMeasure {
    TreeMeasure(routes: 1, screenBytes: CanonicalJSON.size(of: screen).bytes) + (child?.measure ?? TreeMeasure())
  }
}

extension Int {
  /// `10,000`: limits as messages write them.
  fileprivate var formatted: String {
    let digits = String(self)
    var grouped = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return grouped
  }
}

extension TreeMeasure {
  /// The measure of the tree after `edit`, made by the coordinator `target` standing at
  /// `place`, throwing the first limit the result would pass. Costs what the edit adds or
  /// removes, never the whole tree.
  func after(_ edit: Edit<JSONValue>, on target: AnyCoordinator, at place: TreePlace) throws(TreeLimit) -> TreeMeasure {
    let routes = target.routes ?? []
    let next: TreeMeasure
    switch edit {
    case .unchanged, .select:
      return self
    case .truncate(let keeping):
      return routes[keeping...].reduce(self) { $0 - $1.measure }
    case .append(let route):
      if routes.count + 1 > TreeLimits.routesInOneStack { throw .routesInOneStack(TreeLimits.routesInOneStack) }
      next = self + (try route.measured(at: place.routeLevel, in: place))
    case .replaceRoutes(let replacement):
      next = self - target.measure + (try AnyCoordinator.stack(replacement).measured(at: place))
    case .updateScreen(let index, let screen):
      let size = CanonicalJSON.size(of: screen)
      if place.routeLevel + size.nesting > TreeLimits.jsonNesting { throw .jsonNesting(TreeLimits.jsonNesting) }
      let before = CanonicalJSON.size(of: routes[index].screen).bytes
      next = TreeMeasure(routes: self.routes, screenBytes: screenBytes - before + size.bytes)
    case .replaceTabs(let tabs, let selected):
      next = self - target.measure + (try AnyCoordinator.tabs(tabs, selected: selected).measured(at: place))
    }
    try next.checkTotals()
    return next
  }
}
