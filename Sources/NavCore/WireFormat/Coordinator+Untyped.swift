extension Coordinator {
  /// This state with untyped screens: each screen the JSON its `Codable` conformance writes,
  /// built as a tree directly (no text in between), the tree checked as reading it from the
  /// wire format would check it. How the store turns an app's typed state into what it stores.
  package func untyped() throws(WireFormatError) -> AnyCoordinator {
    if let same = self as? AnyCoordinator { return same }
    if let error = structureError() { throw WireFormatError(field: error.location, message: error.problem.description) }
    do {
      return try untypedTree()
    } catch {
      throw error.wireFormatError
    }
  }

  fileprivate func untypedTree() throws(WireFailure) -> AnyCoordinator {
    switch self {
    case .stack(let routes):
      var untyped: [Route<JSONValue>] = []
      untyped.reserveCapacity(routes.count)
      for (index, route) in routes.enumerated() {
        do {
          untyped.append(try route.untypedTree())
        } catch {
          throw error.inside(index: index).inside("routes")
        }
      }
      return .stack(untyped)
    case .tabs(let tabs, let selected):
      var untyped: [AnyCoordinator] = []
      untyped.reserveCapacity(tabs.count)
      for (index, tab) in tabs.enumerated() {
        do {
          untyped.append(try tab.untypedTree())
        } catch {
          throw error.inside(index: index).inside("tabs")
        }
      }
      return .tabs(untyped, selected: selected)
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
