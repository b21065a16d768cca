@_spi(Internals) import NavJSON

extension Coordinator {
  /// This state with untyped screens: each screen the JSON its `Codable` conformance writes,
  /// built as a tree directly (no text in between), the tree checked as reading it from the
  /// wire format would check it. How the store turns an app's typed state into what it stores.
  package func untyped() throws(WireFormatError) -> AnyCoordinator {
    if let same = self as? AnyCoordinator { return same }
    if let error = structureError() { throw WireFormatError(field: error.location, message: error.problem.description) }
    let tree: AnyCoordinator
    do {
      tree = try untypedTree()
    } catch {
      throw error.wireFormatError
    }
    // The wire format refuses JSON nested deeper than the parser reads. A state that may come
    // near that takes the long way, written and read back, which refuses it as reading would.
    guard tree.wireNestingBound < JSONParser.maximumDepth - 1 else {
      return try WireFormat.decode(AnyCoordinator.self, from: try WireFormat.tree(of: self))
    }
    return tree
  }

  fileprivate func untypedTree() throws(WireFailure) -> AnyCoordinator {
    switch self {
    case .stack(let routes):
      do {
        return .stack(try routes.mapPlacingFailures { route throws(WireFailure) in try route.untypedTree() })
      } catch {
        throw error.inside("routes")
      }
    case .tabs(let tabs, let selected):
      do {
        return .tabs(
          try tabs.mapPlacingFailures { tab throws(WireFailure) in try tab.untypedTree() }, selected: selected)
      } catch {
        throw error.inside("tabs")
      }
    }
  }
}

extension AnyCoordinator {
  /// At least how deeply the state's wire-format JSON nests (objects and arrays), and at most
  /// a few levels more: a coordinator is an object holding an array of routes or tabs, a route
  /// an object holding its screen, its child and its style.
  fileprivate var wireNestingBound: Int {
    switch self {
    case .stack(let routes):
      2 + (routes.map { 2 + Swift.max($0.screen.nestingDepth, $0.child?.wireNestingBound ?? 0, 2) }.max() ?? 0)
    case .tabs(let tabs, _):
      2 + (tabs.map(\.wireNestingBound).max() ?? 0)
    }
  }
}

extension Route {
  fileprivate func untypedTree() throws(WireFailure) -> Route<JSONValue> {
    let tree: JSONValue
    do {
      tree = try WireScreens.tree(of: screen)
    } catch {
      throw error.inside("screen")
    }
    let untypedChild: AnyCoordinator?
    do {
      untypedChild = try child?.untypedTree()
    } catch {
      throw error.inside("child")
    }
    return Route<JSONValue>(style: style, screen: tree, child: untypedChild)
  }
}
