import NavJSON

extension Coordinator {
  /// This state with untyped screens: each screen the JSON its `Codable` conformance writes,
  /// built as a tree directly (no text in between), the tree checked as reading it from the
  /// wire format would check it. How the store turns an app's typed state into what it stores.
  package func untyped() throws(WireFormatError) -> AnyCoordinator {
    var strict: [UnstorableScreen.Found]? = nil
    return try untyped(unstorable: &strict)
  }

  /// As `untyped()`, but a screen that does not encode is kept as a marker
  /// (`UnstorableScreen`) and listed in `unstorable`, so that the change is still recorded.
  package func untyped(markingUnstorable unstorable: inout [UnstorableScreen.Found]) throws(WireFormatError)
    -> AnyCoordinator
  {
    var found: [UnstorableScreen.Found]? = []
    defer { unstorable += found ?? [] }
    return try untyped(unstorable: &found)
  }

  /// `unstorable` is `nil` for the strict form, which throws at the first screen that does not
  /// encode.
  private func untyped(unstorable: inout [UnstorableScreen.Found]?) throws(WireFormatError) -> AnyCoordinator {
    if let same = self as? AnyCoordinator { return same }
    if let error = structureError() { throw WireFormatError(field: error.location, message: error.problem.description) }
    let tree: AnyCoordinator
    do {
      tree = try untypedTree(unstorable: &unstorable)
    } catch {
      throw error.wireFormatError
    }
    // The wire format refuses JSON nested deeper than the parser reads. A state that may come
    // near that takes the long way, written and read back, which refuses it as reading would.
    guard tree.wireNestingBound < JSONParser.maximumDepth - 1 else {
      return try WireFormat.decode(AnyCoordinator.self, from: try WireFormat.tree(of: tree))
    }
    return tree
  }

  fileprivate func untypedTree(unstorable: inout [UnstorableScreen.Found]?) throws(WireFailure) -> AnyCoordinator {
    switch self {
    case .stack(let routes):
      do {
        return .stack(
          try routes.mapPlacingFailures { route throws(WireFailure) in try route.untypedTree(unstorable: &unstorable) })
      } catch {
        throw error.inside("routes")
      }
    case .tabs(let tabs, let selected):
      do {
        return .tabs(
          try tabs.mapPlacingFailures { tab throws(WireFailure) in try tab.untypedTree(unstorable: &unstorable) },
          selected: selected)
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
  fileprivate func untypedTree(unstorable: inout [UnstorableScreen.Found]?) throws(WireFailure) -> Route<JSONValue> {
    var tree: JSONValue
    do {
      tree = try WireScreens.tree(of: screen)
    } catch {
      guard unstorable != nil else { throw error.inside("screen") }
      let found = UnstorableScreen.Found(screen: UnstorableScreen.name(of: screen), error: error.message)
      unstorable?.append(found)
      tree = UnstorableScreen.marker(found)
    }
    let untypedChild: AnyCoordinator?
    do {
      untypedChild = try child?.untypedTree(unstorable: &unstorable)
    } catch {
      throw error.inside("child")
    }
    return Route<JSONValue>(style: style, screen: tree, child: untypedChild)
  }
}
