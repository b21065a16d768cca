/// Deriving the operations between two states.
///
/// An app that only sees its state before and after an action (a reducer, a `routes` binding a
/// host wrote back) still wants a log that reads like what happened: "dismissed the sheet",
/// "pushed numberDetail", not "replaced everything". So each stack is compared with the shortest
/// natural operations:
/// - routes kept in place (same style, same kind of child) get `updateScreen` for a changed
///   screen and a nested diff for a changed child;
/// - the routes above them are removed with one `pop` (all pushes), `dismiss` (the first removed
///   is presented) or `goBack` (anything else);
/// - new routes are added one `push`/`presentSheet`/`presentCover` each, with their children;
/// - `setRoutes` only when the root itself changes style or child kind, or when an added push
///   would have no navigation to land in; `setTabs` when tabs are added, removed or change kind.
///
/// Operations are ordered so each applies to the state the previous ones left:
/// `apply(diff(a, b), a) == b` for any two well-formed states whose top coordinators are of the
/// same kind.
extension Coordinator {
  /// The operations that turn `old` into `new`; empty when they are equal.
  public static func diff(from old: Coordinator, to new: Coordinator) throws(DiffError) -> [NavigationOperation<
    AppScreen
  >] {
    guard old.kind == new.kind else {
      throw DiffError.topCoordinatorKindChanged(from: old.kind, to: new.kind)
    }
    var differ = Differ<AppScreen>()
    differ.diff(old, new, at: .top)
    return differ.operations
  }
}

/// Why two states cannot be connected by operations.
public enum DiffError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The session's top coordinator changed kind, which no operation can do (a session keeps
  /// the kind it started with).
  case topCoordinatorKindChanged(from: CoordinatorKind, to: CoordinatorKind)

  public var description: String {
    switch self {
    case .topCoordinatorKindChanged(let from, let to):
      "the top coordinator changed from \(from) to \(to); a session keeps the kind it started with, so start a new session"
    }
  }
}

private struct Differ<AppScreen: NavigationScreen> {
  var operations: [NavigationOperation<AppScreen>] = []

  /// Two coordinators of the same kind.
  mutating func diff(_ old: Coordinator<AppScreen>, _ new: Coordinator<AppScreen>, at path: CoordinatorPath) {
    guard old != new else { return }
    switch (old, new) {
    case (.stack(let oldRoutes), .stack(let newRoutes)):
      diffStack(oldRoutes, newRoutes, at: path)
    case (.tabs(let oldTabs, let oldSelected), .tabs(let newTabs, let newSelected)):
      let sameShape = oldTabs.count == newTabs.count && zip(oldTabs, newTabs).allSatisfy { $0.kind == $1.kind }
      guard sameShape else {
        operations.append(.setTabs(newTabs, selected: newSelected, at: path))
        return
      }
      if oldSelected != newSelected {
        operations.append(.selectTab(newSelected, at: path))
      }
      for (index, (oldTab, newTab)) in zip(oldTabs, newTabs).enumerated() {
        diff(oldTab, newTab, at: path.appending(.tab(index)))
      }
    default:
      break  // callers only pair coordinators of the same kind
    }
  }

  mutating func diffStack(_ old: [Route<AppScreen>], _ new: [Route<AppScreen>], at path: CoordinatorPath) {
    let kept = Self.keptPrefixLength(old, new)
    guard kept > 0, StructureRules.stackProblem(new) == nil,
      let additions = Self.additions(of: new[kept...], onto: new[..<kept], at: path)
    else {
      operations.append(.setRoutes(new, at: path))
      return
    }
    for index in 0..<kept {
      if old[index].screen != new[index].screen {
        operations.append(.updateScreen(index: index, screen: new[index].screen, at: path))
      }
      if let oldChild = old[index].child, let newChild = new[index].child {
        diff(oldChild, newChild, at: path.appending(.route(index)))
      }
    }
    if old.count > kept {
      operations.append(Self.removal(of: old[kept...], at: path))
    }
    operations.append(contentsOf: additions)
  }

  /// The operations that add `added` one by one onto `base`, or `nil` when one of them would be
  /// rejected (a push with no navigation to land in). Checked by applying them, so the rule
  /// lives only in `apply`.
  static func additions(
    of added: ArraySlice<Route<AppScreen>>, onto base: ArraySlice<Route<AppScreen>>, at path: CoordinatorPath
  ) -> [NavigationOperation<AppScreen>]? {
    var scratch = Coordinator.stack(Array(base))
    var operations: [NavigationOperation<AppScreen>] = []
    for route in added {
      var operation = addition(of: route)
      guard (try? scratch.apply(operation)) != nil else { return nil }
      operation.path = path
      operations.append(operation)
    }
    return operations
  }

  /// How many routes, from the root, stay in place: same style and the same kind of child.
  static func keptPrefixLength(_ old: [Route<AppScreen>], _ new: [Route<AppScreen>]) -> Int {
    var length = 0
    while length < min(old.count, new.count), old[length].style == new[length].style,
      old[length].child?.kind == new[length].child?.kind
    {
      length += 1
    }
    return length
  }

  /// One operation that removes `removed` (the top of the stack).
  static func removal(of removed: ArraySlice<Route<AppScreen>>, at path: CoordinatorPath) -> NavigationOperation<
    AppScreen
  > {
    if removed.allSatisfy({ $0.style.isPush }) {
      return .pop(removed.count, at: path)
    }
    if let first = removed.first, first.isPresented {
      return .dismiss(removed.filter(\.isPresented).count, at: path)
    }
    return .goBack(removed.count, at: path)
  }

  /// The operation that adds `route` on top of the stack.
  static func addition(of route: Route<AppScreen>) -> NavigationOperation<AppScreen> {
    switch route.style {
    case .sheet(let withNavigation):
      .presentSheet(route.screen, withNavigation: withNavigation, child: route.child)
    case .cover(let withNavigation):
      .presentCover(route.screen, withNavigation: withNavigation, child: route.child)
    case .push, .root:  // a root above index 0 is refused before this is reached
      .push(route.screen, child: route.child)
    }
  }
}
