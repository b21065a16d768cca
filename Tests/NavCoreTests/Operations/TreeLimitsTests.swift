@_spi(Internals) import NavCore
import NavJSON
import NavTestSupport
import PropertyBased
import Testing

/// The wire format's tree limits: each one holds at its edge and refuses one past it, naming
/// itself, with the state unchanged; and the measure carried beside a state always equals the
/// state's own, whatever the operations did.
@Suite struct TreeLimitsTests {
  static let root = AnyRoute.root(.string("home"), withNavigation: true)

  /// A stack of a root and `pushes` pushed screens.
  static func stack(pushes: Int) -> AnyCoordinator {
    .stack([root] + (0..<pushes).map { AnyRoute.push(.string("s\($0)")) })
  }

  /// Applies `operation` to `state` with its measure, as the store does.
  static func apply(_ operation: AnyOperation, to state: inout AnyCoordinator?, measure: inout TreeMeasure)
    throws(NavigationError)
  {
    try operation.apply(toSession: &state, measure: &measure)
  }

  /// The limit a rejection names, or `nil` when it is another rejection or none.
  static func limit(refusing operation: AnyOperation, on state: AnyCoordinator?) -> TreeLimit? {
    var state = state
    var measure = state?.measure ?? TreeMeasure()
    let before = (state, measure)
    do throws(NavigationError) {
      try apply(operation, to: &state, measure: &measure)
      return nil
    } catch {
      #expect(state == before.0 && measure == before.1, "a refusal changed the state")
      if case .treeTooLarge(let limit) = error.reason { return limit }
      return nil
    }
  }

  @Test func aStackHoldsAThousandRoutesAndNoMore() {
    let full = Self.stack(pushes: TreeLimits.routesInOneStack - 1)
    #expect(Self.limit(refusing: .start(full), on: nil) == nil)
    #expect(Self.limit(refusing: .push(.string("one more")), on: full) == .routesInOneStack(1_000))
    #expect(
      Self.limit(refusing: .start(Self.stack(pushes: TreeLimits.routesInOneStack)), on: nil) == .routesInOneStack(1_000)
    )
    // Removing and replacing within the limit are never refused for it.
    #expect(Self.limit(refusing: .pop(), on: full) == nil)
    #expect(Self.limit(refusing: .updateScreen(index: 999, screen: .string("x")), on: full) == nil)
    #expect(
      Self.limit(refusing: .setRoutes(Self.stack(pushes: TreeLimits.routesInOneStack).routes ?? []), on: full)
        == .routesInOneStack(1_000))
  }

  @Test func theWholeTreeHoldsTenThousandRoutesAndNoMore() throws {
    // Ten tabs of 1,000 routes: 10,000 routes, each stack at its own limit.
    let tabs = AnyCoordinator.tabs(Array(repeating: Self.stack(pushes: 999), count: 10), selected: 0)
    #expect(tabs.measure.routes == 10_000)
    #expect(Self.limit(refusing: .start(tabs), on: nil) == nil)
    let eleven = AnyCoordinator.tabs(
      Array(repeating: Self.stack(pushes: 999), count: 10) + [Self.stack(pushes: 0)], selected: 0)
    #expect(Self.limit(refusing: .start(eleven), on: nil) == .routes(10_000))
    let less = AnyCoordinator.tabs(
      Array(repeating: Self.stack(pushes: 999), count: 9) + [Self.stack(pushes: 998)], selected: 0)
    #expect(Self.limit(refusing: .push(.string("10,000th"), at: [.tab(9)]), on: less) == nil)
    #expect(
      Self.limit(refusing: .presentSheet(.string("one more"), at: [.tab(0)]), on: tabs) == .routesInOneStack(1_000))
    #expect(
      Self.limit(refusing: .setTabs(Array(repeating: Self.stack(pushes: 999), count: 11), selected: 0), on: less)
        == .routes(10_000))
  }

  /// A flow nested `depth` coordinators deep, the top one counted.
  static func nested(depth: Int) -> AnyCoordinator {
    var tree = AnyCoordinator.stack([AnyRoute.root(.string("leaf"), withNavigation: true)])
    for _ in 1..<depth { tree = .stack([AnyRoute.root(.string("host"), child: tree)]) }
    return tree
  }

  @Test func coordinatorsNestSixtyFourDeepAndNoMore() {
    #expect(Self.limit(refusing: .start(Self.nested(depth: 64)), on: nil) == nil)
    #expect(Self.limit(refusing: .start(Self.nested(depth: 65)), on: nil) == .depth(64))
    // A push bringing a flow in at the deepest flow: the path counts too.
    let deep = Self.nested(depth: 63)
    let deepest = CoordinatorPath(Array(repeating: .route(0), count: 62))
    let flow = Self.nested(depth: 1)
    #expect(Self.limit(refusing: .push(.string("p"), child: flow, at: deepest), on: deep) == nil)
    #expect(
      Self.limit(refusing: .push(.string("p"), child: Self.nested(depth: 2), at: deepest), on: deep) == .depth(64))
  }

  @Test func screensHoldFourMebibytesInAll() throws {
    let big = JSONValue.string(String(repeating: "x", count: 1_024 * 1_024 - 2))  // 1 MiB of canonical text
    #expect(CanonicalJSON.size(of: big).bytes == 1_024 * 1_024)
    var state: AnyCoordinator? = nil
    var measure = TreeMeasure()
    try Self.apply(
      .start(.stack([AnyRoute.root(.string("home"), withNavigation: true)])), to: &state, measure: &measure)
    for _ in 0..<3 { try Self.apply(.push(big), to: &state, measure: &measure) }
    // 3 MiB and the root's 6 bytes: one more mebibyte does not fit, a smaller screen does.
    #expect(Self.limit(refusing: .push(big), on: state) == .screenBytes(4 * 1_024 * 1_024))
    #expect(Self.limit(refusing: .push(.string(String(repeating: "y", count: 1_000))), on: state) == nil)
    // Growing a screen in place counts too; shrinking one never fails.
    let bigger = JSONValue.string(String(repeating: "x", count: 2 * 1_024 * 1_024))
    #expect(Self.limit(refusing: .updateScreen(index: 1, screen: bigger), on: state) == .screenBytes(4 * 1_024 * 1_024))
    #expect(Self.limit(refusing: .updateScreen(index: 1, screen: .string("small")), on: state) == nil)
  }

  @Test func aStateNeverNestsDeeperThanAReaderTakes() throws {
    // A route of the top stack is written at level 3 (the stack's object, its array, the
    // route): a screen nesting 508 levels would take the state past 510, one of 507 does not.
    func nested(_ levels: Int) -> JSONValue {
      var screen = JSONValue.null
      for _ in 0..<levels { screen = .array([screen]) }
      return screen
    }
    let top = AnyCoordinator.stack([AnyRoute.root(.string("home"), withNavigation: true)])
    #expect(Self.limit(refusing: .push(nested(508)), on: top) == .jsonNesting(510))
    let shallower = nested(507)
    #expect(Self.limit(refusing: .push(shallower), on: top) == nil)
    // One flow down, the same screen no longer fits.
    let hosting = AnyCoordinator.stack([AnyRoute.root(.string("home"), withNavigation: true, child: top)])
    #expect(Self.limit(refusing: .push(shallower, at: [.route(0)]), on: hosting) == .jsonNesting(510))
    // Whatever is accepted reads back: the state from its own text, and a `start` holding it
    // (a session restored from it) from an event's line.
    var state: AnyCoordinator? = top
    var measure = top.measure
    try Self.apply(.push(shallower), to: &state, measure: &measure)
    let tree = try #require(state)
    #expect(try WireFormat.decode(AnyCoordinator.self, from: try WireFormat.canonicalBytes(tree)) == state)
    let line = AnyEvent(
      session: try SessionID("s"), at: Timestamp(millisecondsSince1970: 0), operation: .start(tree))
    #expect(try WireFormat.decode(AnyEvent.self, from: try WireFormat.canonicalBytes(line)) == line)
  }

  @Test func theMeasureCarriedBesideAStateIsAlwaysItsOwn() async {
    await checkProperty(count: 300, input: TreeGen.session(depth: 3, length: 1...30)) { initial, operations in
      var state: AnyCoordinator? = nil
      var measure = TreeMeasure()
      try Self.apply(.start(initial), to: &state, measure: &measure)
      for operation in operations {
        try? Self.apply(operation, to: &state, measure: &measure)
        #expect(measure == state?.measure, "after \(operation.name)")
      }
    }
  }

  @Test func theMeasureCountsScreensAsTheirCanonicalText() async {
    await checkProperty(count: 300, input: TreeGen.json(depth: 4)) { value in
      let size = CanonicalJSON.size(of: value)
      #expect(size.bytes == value.canonicalBytes.count)
      #expect(size.nesting == value.nestingDepth)
    }
  }
}
