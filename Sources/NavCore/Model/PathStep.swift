/// One step down the navigation tree: into the child of a route, or into a tab.
public enum PathStep: Hashable, Sendable {
  /// The child coordinator hosted by route `index` of a stack.
  case route(Int)
  /// Tab `index` of a tabs coordinator.
  case tab(Int)
}

extension PathStep: CustomStringConvertible {
  /// `route 2` or `tab 1`, as messages print it.
  public var description: String {
    switch self {
    case .route(let index): "route \(index)"
    case .tab(let index): "tab \(index)"
    }
  }
}

/// Where in the tree an operation applies: the steps from the session's top coordinator.
///
/// The empty path is the top coordinator itself. A struct (not a bare array) so that it prints
/// and encodes as one concept and cannot be confused with other arrays of integers.
public struct CoordinatorPath: Hashable, Sendable, ExpressibleByArrayLiteral {
  /// The steps, outermost first.
  public var steps: [PathStep]

  /// Creates a path from its steps.
  public init(_ steps: [PathStep]) {
    self.steps = steps
  }

  /// A path written as an array literal: `[.route(0), .tab(1)]`.
  public init(arrayLiteral steps: PathStep...) {
    self.steps = steps
  }

  /// The top coordinator.
  public static let top = CoordinatorPath([])

  /// Whether this is the top coordinator.
  package var isTop: Bool { steps.isEmpty }

  /// This path extended by one step: the path of a flow inside the one this path names (a tab,
  /// or the flow a route hosts), as an app names the flows it drives.
  public func appending(_ step: PathStep) -> CoordinatorPath {
    CoordinatorPath(steps + [step])
  }
}

extension CoordinatorPath: CustomStringConvertible {
  /// `the top coordinator` or `path [route 2, tab 1]`, for messages.
  public var description: String {
    isTop ? "the top coordinator" : "path [" + steps.map(\.description).joined(separator: ", ") + "]"
  }
}
