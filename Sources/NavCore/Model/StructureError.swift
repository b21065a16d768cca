import NavJSON

/// Why a coordinator tree is not well-formed, and where.
///
/// The same rules guard decoding (so a malformed document is refused with the field named) and
/// the operations that bring in whole trees (`start`, `setRoutes`, `setTabs`, a pushed child), so
/// no operation can produce a state the wire format would refuse to read back.
public struct StructureError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Where the problem is, as a path of fields from the value checked: `routes[2].child.tabs`.
  public var location: String
  /// What is wrong.
  public var problem: Problem

  /// Creates an error.
  package init(location: String, problem: Problem) {
    self.location = location
    self.problem = problem
  }

  /// The ways a coordinator can be malformed.
  public enum Problem: Hashable, Sendable, CustomStringConvertible {
    /// A stack with no routes at all.
    case emptyStack
    /// A stack whose first route is not a root.
    case firstRouteNotRoot(style: RouteStyle)
    /// A root anywhere but first.
    case rootNotFirst(index: Int)
    /// Tabs with no tab.
    case noTabs
    /// A selected tab that does not exist.
    case selectedOutOfRange(selected: Int, tabCount: Int)

    public var description: String {
      switch self {
      case .emptyStack:
        "a stack needs at least one route, its root"
      case .firstRouteNotRoot(let style):
        "the first route of a stack must be a root, not a \(style.name)"
      case .rootNotFirst(let index):
        "route \(index) is a root, but only the first route of a stack may be one"
      case .noTabs:
        "tabs need at least one tab"
      case .selectedOutOfRange(let selected, let tabCount):
        "selected tab \(selected) does not exist (there \(tabCount == 1 ? "is 1 tab" : "are \(tabCount) tabs"))"
      }
    }

    /// The field of the coordinator the problem is in, relative to the coordinator.
    var fieldPath: [AnyCodingKey] {
      switch self {
      case .emptyStack: [AnyCodingKey("routes")]
      case .firstRouteNotRoot: [AnyCodingKey("routes"), AnyCodingKey(intValue: 0), AnyCodingKey("style")]
      case .rootNotFirst(let index): [AnyCodingKey("routes"), AnyCodingKey(intValue: index), AnyCodingKey("style")]
      case .noTabs: [AnyCodingKey("tabs")]
      case .selectedOutOfRange: [AnyCodingKey("selected")]
      }
    }

    /// `fieldPath` as text: `routes[0].style`.
    var field: String { FieldPath.render(fieldPath) }
  }

  public var description: String {
    location.isEmpty ? problem.description : "\(location): \(problem)"
  }
}

/// The structural rules, one level at a time; `Coordinator.structureError()` applies them to a
/// whole tree and the decoders apply them as they read each level.
enum StructureRules {
  static func stackProblem<AppScreen>(_ routes: [Route<AppScreen>]) -> StructureError.Problem? {
    guard let first = routes.first else { return .emptyStack }
    guard first.style.isRoot else { return .firstRouteNotRoot(style: first.style) }
    if let misplaced = routes.indices.dropFirst().first(where: { routes[$0].style.isRoot }) {
      return .rootNotFirst(index: misplaced)
    }
    return nil
  }

  static func tabsProblem(tabCount: Int, selected: Int) -> StructureError.Problem? {
    guard tabCount > 0 else { return .noTabs }
    guard (0..<tabCount).contains(selected) else {
      return .selectedOutOfRange(selected: selected, tabCount: tabCount)
    }
    return nil
  }
}

extension Coordinator {
  /// The first structural problem of this tree, depth first, or `nil` when it is well-formed.
  public func structureError() -> StructureError? {
    structureError(location: "")
  }

  func structureError(location: String) -> StructureError? {
    func join(_ field: String) -> String { location.isEmpty ? field : location + "." + field }
    switch self {
    case .stack(let routes):
      if let problem = StructureRules.stackProblem(routes) {
        return StructureError(location: join(problem.field), problem: problem)
      }
      for (index, route) in routes.enumerated() {
        if let child = route.child,
          let error = child.structureError(location: join("routes[\(index)].child"))
        {
          return error
        }
      }
    case .tabs(let tabs, let selected):
      if let problem = StructureRules.tabsProblem(tabCount: tabs.count, selected: selected) {
        return StructureError(location: join(problem.field), problem: problem)
      }
      for (index, tab) in tabs.enumerated() {
        if let error = tab.structureError(location: join("tabs[\(index)]")) { return error }
      }
    }
    return nil
  }
}
