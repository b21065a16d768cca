import CustomDump
@_spi(Internals) import NavCore
import NavTestSupport
import Testing

/// Every "rejected when" row of the spec's operation table, plus the general rules (paths,
/// coordinator kinds, counts). Each case checks the reason, that the message names the
/// operation, and that the state is exactly as before.
@Suite struct OperationRejectionTests {
  static let plain: AnyCoordinator = .stack(stack("R+", "↑a", "◻+b", "↑c"))
  static let tabs: AnyCoordinator = .tabs([.stack(stack("R+")), .stack(stack("R"))], selected: 0)

  func expectRejected(
    _ operation: AnyOperation, on state: AnyCoordinator = plain, because expected: NavigationError.Reason,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var mutated = state
    do {
      try mutated.apply(operation)
      Issue.record("\(operation.name) was accepted", sourceLocation: sourceLocation)
    } catch {
      #expect(error.reason == expected, sourceLocation: sourceLocation)
      #expect(error.operation == operation.name, sourceLocation: sourceLocation)
      #expect(error.description.contains("\(operation.name) at"), sourceLocation: sourceLocation)
    }
    #expect(mutated == state, "a rejected operation changed the state", sourceLocation: sourceLocation)
  }

  @Test func startIsOnlyTheFirstEvent() throws {
    expectRejected(.start(.stack(stack("R"))), because: .alreadyStarted)
    #expect(throws: NavigationError.self) { try AnyOperation.push("x").apply(to: nil) }
    let started = try AnyOperation.start(Self.plain).apply(to: nil)
    #expect(started == Self.plain)
    #expect(throws: NavigationError.self) { try AnyOperation.start(Self.plain).apply(to: started) }
    let malformed = AnyOperation.start(.stack([]))
    #expect(throws: NavigationError.self) { try malformed.apply(to: nil) }
  }

  @Test func pushNeedsNavigation() {
    let noNavigation: AnyCoordinator = .stack(stack("R+", "↑a", "◻b"))
    expectRejected(
      .push("x"), on: noNavigation, because: .noNavigation(contextIndex: 2, contextStyle: .sheet(withNavigation: false))
    )
    expectRejected(
      .push("x"), on: .stack(stack("R")),
      because: .noNavigation(contextIndex: 0, contextStyle: .root(withNavigation: false)))
  }

  @Test func goBackNeverRemovesTheRoot() {
    expectRejected(.goBack(4), because: .wouldRemoveRoot(count: 4, routeCount: 4))
    expectRejected(.goBack(0), because: .invalidCount(0))
  }

  @Test func goBackToNeedsAnIndexInRange() {
    expectRejected(.goBackTo(index: 4), because: .indexOutOfRange(index: 4, count: 4))
    expectRejected(.goBackTo(index: -1), because: .indexOutOfRange(index: -1, count: 4))
  }

  @Test func popOnlyRemovesPushes() {
    expectRejected(.pop(2), because: .notAPush(index: 2, style: .sheet(withNavigation: true)))
    expectRejected(.pop(4), because: .wouldRemoveRoot(count: 4, routeCount: 4))
    expectRejected(.pop(-1), because: .invalidCount(-1))
  }

  @Test func popToOnlyRemovesPushes() {
    expectRejected(.popTo(index: 1), because: .notAPush(index: 2, style: .sheet(withNavigation: true)))
    expectRejected(.popTo(index: 9), because: .indexOutOfRange(index: 9, count: 4))
    expectRejected(.popToRoot(), because: .notAPush(index: 2, style: .sheet(withNavigation: true)))
  }

  @Test func dismissNeedsEnoughPresentedRoutes() {
    expectRejected(.dismiss(2), because: .notEnoughPresented(requested: 2, available: 1))
    expectRejected(.dismiss(), on: .stack(stack("R+", "↑a")), because: .notEnoughPresented(requested: 1, available: 0))
    expectRejected(.dismiss(0), because: .invalidCount(0))
  }

  @Test func setRoutesNeedsAWellFormedStack() {
    expectRejected(
      .setRoutes([]),
      because: .invalidStructure(StructureError(location: "routes", problem: .emptyStack)))
    expectRejected(
      .setRoutes(stack("↑a")),
      because: .invalidStructure(StructureError(location: "routes[0].style", problem: .firstRouteNotRoot(style: .push)))
    )
    expectRejected(
      .setRoutes(stack("R", "R")),
      because: .invalidStructure(StructureError(location: "routes[1].style", problem: .rootNotFirst(index: 1))))
  }

  @Test func updateScreenNeedsAnIndexInRange() {
    expectRejected(.updateScreen(index: 4, screen: "x"), because: .indexOutOfRange(index: 4, count: 4))
  }

  @Test func selectTabNeedsTabsAndAnIndexInRange() {
    expectRejected(.selectTab(0), because: .wrongCoordinatorKind(expected: .tabs, found: .stack))
    expectRejected(.selectTab(2), on: Self.tabs, because: .indexOutOfRange(index: 2, count: 2))
  }

  @Test func setTabsNeedsTabsAndAValidSelection() {
    expectRejected(
      .setTabs([.stack(stack("R"))], selected: 0), because: .wrongCoordinatorKind(expected: .tabs, found: .stack))
    expectRejected(
      .setTabs([.stack(stack("R"))], selected: 1), on: Self.tabs,
      because: .invalidStructure(
        StructureError(location: "selected", problem: .selectedOutOfRange(selected: 1, tabCount: 1))))
    expectRejected(
      .setTabs([], selected: 0), on: Self.tabs,
      because: .invalidStructure(StructureError(location: "tabs", problem: .noTabs)))
  }

  @Test func stackOperationsAtTabsAreRejected() {
    for operation: AnyOperation in [
      .push("x"), .presentSheet("x"), .goBack(), .goBackToRoot(), .popToRoot(), .dismissAll(), .setRoutes(stack("R")),
    ] {
      expectRejected(operation, on: Self.tabs, because: .wrongCoordinatorKind(expected: .stack, found: .tabs))
    }
  }

  @Test func pathsThatLeadNowhereAreRejected() {
    let nested: AnyCoordinator = .stack([.root("home", withNavigation: true, child: Self.tabs), .push("a")])
    expectRejected(
      .goBack(at: [.route(1)]), on: nested, because: .pathNotFound(stepIndex: 0, problem: .noChild(routeIndex: 1)))
    expectRejected(
      .goBack(at: [.route(5)]), on: nested,
      because: .pathNotFound(stepIndex: 0, problem: .routeOutOfRange(index: 5, routeCount: 2)))
    expectRejected(
      .goBack(at: [.tab(0)]), on: nested,
      because: .pathNotFound(stepIndex: 0, problem: .stepDoesNotFit(step: .tab(0), found: .stack)))
    expectRejected(
      .goBack(at: [.route(0), .tab(3)]), on: nested,
      because: .pathNotFound(stepIndex: 1, problem: .tabOutOfRange(index: 3, tabCount: 2)))
    expectRejected(
      .goBack(at: [.route(0), .route(0)]), on: nested,
      because: .pathNotFound(stepIndex: 1, problem: .stepDoesNotFit(step: .route(0), found: .tabs)))
  }

  @Test func aMalformedChildIsRejected() {
    expectRejected(
      .presentSheet("x", child: .tabs([], selected: 0)),
      because: .invalidStructure(StructureError(location: "child.tabs", problem: .noTabs)))
  }

  @Test func messagesNameTheOperationPathAndReason() {
    let nested: AnyCoordinator = .stack([.root("home", child: .stack(stack("R+", "◻s")))])
    var state = nested
    do {
      try state.apply(.pop(at: [.route(0)]))
      Issue.record("pop of a sheet was accepted")
    } catch {
      #expect(
        error.description
          == "pop at path [route 0] rejected: route 1 is a sheet, not a push; pop only removes pushed screens (use dismiss or goBack)"
      )
    }
  }
}
