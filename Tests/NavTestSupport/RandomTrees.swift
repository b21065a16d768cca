import NavCore
import PropertyBased

/// Random navigation trees and operations for the property tests.
///
/// Screens come from a small pool so that equal screens (and so shared prefixes, no-op updates
/// and the like) are common; trees nest stacks, tabs and children up to a given depth.
public enum RandomTrees {
  public static let screenPool: [JSONValue] = [
    "home", "settings", "profile",
    ["numberDetail": ["number": 3]],
    ["numberDetail": ["number": 7]],
    ["name": "search", "query": "swift"],
    ["type": "article", "id": 12],
    [1, 2, 3],
    42,
    nil,
  ]

  public static func screen(using rng: inout some RandomNumberGenerator) -> JSONValue {
    screenPool.randomElement(using: &rng) ?? "home"
  }

  public static func coordinator(depth: Int, using rng: inout some RandomNumberGenerator) -> AnyCoordinator {
    if depth > 0, Int.random(in: 0..<5, using: &rng) == 0 {
      return tabs(depth: depth, using: &rng)
    }
    return .stack(routes(depth: depth, using: &rng))
  }

  public static func tabs(depth: Int, using rng: inout some RandomNumberGenerator) -> AnyCoordinator {
    let count = Int.random(in: 1...3, using: &rng)
    let tabs = (0..<count).map { _ in coordinator(depth: depth - 1, using: &rng) }
    return .tabs(tabs, selected: Int.random(in: 0..<count, using: &rng))
  }

  /// A well-formed stack. Mostly what operations can reach (pushes only where there is
  /// navigation); now and then a push over a layer without navigation, which the wire format
  /// allows and `diff` must handle with `setRoutes`.
  public static func routes(depth: Int, using rng: inout some RandomNumberGenerator) -> [AnyRoute] {
    var routes: [AnyRoute] = [
      .root(screen(using: &rng), withNavigation: Bool.random(using: &rng), child: child(depth: depth, using: &rng))
    ]
    var canPush = routes[0].withNavigation
    for _ in 0..<Int.random(in: 0...5, using: &rng) {
      let child = child(depth: depth, using: &rng)
      switch Int.random(in: 0..<10, using: &rng) {
      case 0..<5 where canPush || Int.random(in: 0..<8, using: &rng) == 0:
        routes.append(.push(screen(using: &rng), child: child))
      case 0..<8:
        let navigation = Bool.random(using: &rng)
        routes.append(.sheet(screen(using: &rng), withNavigation: navigation, child: child))
        canPush = navigation
      default:
        let navigation = Bool.random(using: &rng)
        routes.append(.cover(screen(using: &rng), withNavigation: navigation, child: child))
        canPush = navigation
      }
    }
    return routes
  }

  public static func child(depth: Int, using rng: inout some RandomNumberGenerator) -> AnyCoordinator? {
    guard depth > 0, Int.random(in: 0..<6, using: &rng) == 0 else { return nil }
    return coordinator(depth: depth - 1, using: &rng)
  }

  /// A path to a random coordinator of `state` (or, now and then, to one that does not exist).
  public static func path(in state: AnyCoordinator, using rng: inout some RandomNumberGenerator) -> CoordinatorPath {
    var steps: [PathStep] = []
    var current = state
    while Int.random(in: 0..<3, using: &rng) > 0 {
      if Int.random(in: 0..<12, using: &rng) == 0 {
        steps.append(
          Bool.random(using: &rng)
            ? .route(Int.random(in: 0...6, using: &rng)) : .tab(Int.random(in: 0...3, using: &rng)))
        break
      }
      switch current {
      case .stack(let routes):
        let hosts = routes.indices.filter { routes[$0].child != nil }
        guard let index = hosts.randomElement(using: &rng), let child = routes[index].child else {
          return CoordinatorPath(steps)
        }
        steps.append(.route(index))
        current = child
      case .tabs(let tabs, _):
        let index = Int.random(in: 0..<tabs.count, using: &rng)
        steps.append(.tab(index))
        current = tabs[index]
      }
    }
    return CoordinatorPath(steps)
  }

  /// A random operation for `state`: often legal, often not, with counts and indices around
  /// the edges (0, negative, one past the end).
  public static func operation(for state: AnyCoordinator, using rng: inout some RandomNumberGenerator) -> AnyOperation {
    let path = path(in: state, using: &rng)
    let count = Int.random(in: -1...4, using: &rng)
    let index = Int.random(in: -1...6, using: &rng)
    let kind: AnyOperation.Kind
    switch Int.random(in: 0..<17, using: &rng) {
    case 0: kind = .push(screen(using: &rng), child: child(depth: 1, using: &rng))
    case 1:
      kind = .presentSheet(
        screen(using: &rng), withNavigation: Bool.random(using: &rng), child: child(depth: 1, using: &rng))
    case 2: kind = .presentCover(screen(using: &rng), withNavigation: Bool.random(using: &rng), child: nil)
    case 3: kind = .goBack(count: count)
    case 4: kind = .goBackTo(index: index)
    case 5: kind = .goBackToRoot
    case 6: kind = .pop(count: count)
    case 7: kind = .popTo(index: index)
    case 8: kind = .popToRoot
    case 9: kind = .popToCurrentNavigationRoot
    case 10: kind = .dismiss(count: count)
    case 11: kind = .dismissAll
    case 12: kind = .setRoutes(Int.random(in: 0..<6, using: &rng) == 0 ? [] : routes(depth: 1, using: &rng))
    case 13: kind = .updateScreen(index: index, screen: screen(using: &rng))
    case 14: kind = .selectTab(index: index)
    case 15:
      let tabs = (0..<Int.random(in: 0...2, using: &rng)).map { _ in coordinator(depth: 1, using: &rng) }
      kind = .setTabs(tabs, selected: Int.random(in: -1...2, using: &rng))
    default: kind = .start(coordinator(depth: 1, using: &rng), restoredFrom: link(using: &rng))
    }
    return NavigationOperation(kind, at: path)
  }

  /// A link to another session half of the time, with seqs from 1 up to past 2^53.
  public static func link(using rng: inout some RandomNumberGenerator) -> SessionLink? {
    guard Bool.random(using: &rng) else { return nil }
    let ids = ["s-1", "device-7/launch-2", "é 会话", String(repeating: "x", count: 128)].compactMap { try? SessionID($0) }
    let seqs = [1, 2, 100, 1 << 40, 1 << 53]
    guard let session = ids.randomElement(using: &rng), let seq = seqs.randomElement(using: &rng) else { return nil }
    return SessionLink(session: session, seq: seq)
  }

  /// A random JSON value, for the screen-name and canonical-form properties.
  public static func json(depth: Int, using rng: inout some RandomNumberGenerator) -> JSONValue {
    let keys = ["name", "type", "a", "b", "é", "\u{1F600}", "Z", ""]
    switch Int.random(in: 0..<(depth > 0 ? 7 : 4), using: &rng) {
    case 0: return .null
    case 1: return .bool(Bool.random(using: &rng))
    case 2:
      let choices: [Double] = [
        0, -1, 1.5, 1e21, 1e-7, 123_456_789, -0.000001, 333333333.33333329, .leastNonzeroMagnitude,
      ]
      return .number(choices.randomElement(using: &rng) ?? 0)
    case 3:
      let strings = ["home", "", "a\"b", "line\nbreak", "tab\t", "\u{7}", "ünï", "\u{1F600}"]
      return .string(strings.randomElement(using: &rng) ?? "")
    case 4, 5:
      var members: [String: JSONValue] = [:]
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        members[keys.randomElement(using: &rng) ?? "a"] = json(depth: depth - 1, using: &rng)
      }
      return .object(members)
    default:
      return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in json(depth: depth - 1, using: &rng) })
    }
  }
}

/// PropertyBased generators over the random trees above.
public enum TreeGen {
  public static func coordinator(depth: Int) -> Generator<AnyCoordinator, Shrink.None<AnyCoordinator>> {
    Generator { rng in RandomTrees.coordinator(depth: depth, using: &rng) }
  }

  public static func stack(depth: Int) -> Generator<AnyCoordinator, Shrink.None<AnyCoordinator>> {
    Generator { rng in AnyCoordinator.stack(RandomTrees.routes(depth: depth, using: &rng)) }
  }

  /// A state and a sequence of operations proposed one after another on it.
  public static func session(depth: Int, length: ClosedRange<Int>) -> Generator<
    (AnyCoordinator, [AnyOperation]), Shrink.None<(AnyCoordinator, [AnyOperation])>
  > {
    Generator { rng in
      var state = RandomTrees.coordinator(depth: depth, using: &rng)
      let initial = state
      var operations: [AnyOperation] = []
      for _ in 0..<Int.random(in: length, using: &rng) {
        let operation = RandomTrees.operation(for: state, using: &rng)
        operations.append(operation)
        if let next = try? state.applying(operation) { state = next }
      }
      return (initial, operations)
    }
  }

  public static func json(depth: Int) -> Generator<JSONValue, Shrink.None<JSONValue>> {
    Generator { rng in RandomTrees.json(depth: depth, using: &rng) }
  }
}
