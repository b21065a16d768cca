import CustomDump
import NavCore
import NavTestSupport
import Testing

/// FlowStacks' convenience-method oracle (docs/reference/flowstacks.md §6, `ConvenienceMethodsTests`
/// and 0.3.8's `RoutableCollectionTests`), translated to the root-at-index-0 model: each
/// FlowStacks array gains a root at index 0, so FlowStacks' index i is our i + 1 and its
/// "empty" is our `[root]`.
@Suite struct ConvenienceMethodsTests {
  /// FlowStacks' `[.push(1), .push("two"), .push(true)]` behind a navigable root.
  var threePushes: [Route<JSONValue>] { [.root("root", withNavigation: true), .push(1), .push("two"), .push(true)] }

  @Test func goBackToType() throws {
    var routes = threePushes
    #expect(try routes.goBackTo(where: { $0.stringValue != nil }))
    #expect(routes.count == 3)
    #expect(try routes.goBackTo(where: { if case .number = $0 { true } else { false } }))
    #expect(routes.count == 2)
  }

  @Test func goBackToInstance() throws {
    var routes = threePushes
    #expect(try routes.goBackTo("non-matching") == false)
    #expect(routes.count == 4)
    #expect(try routes.goBackTo("two"))
    #expect(routes.count == 3)
    #expect(try routes.goBackTo(1))
    #expect(routes.count == 2)
  }

  @Test func goBackToRoot() throws {
    var routes = threePushes
    try routes.goBackToRoot()
    expectSame(routes, [.root("root", withNavigation: true)])
    try routes.goBackToRoot()  // at the root: a no-op, not an error (FlowStacks #45)
    #expect(routes.count == 1)
  }

  @Test func goBackToIndex() throws {
    var routes = threePushes
    try routes.goBackTo(index: 3)
    #expect(routes.count == 4)
    try routes.goBackTo(index: 2)
    #expect(routes.count == 3)
    try routes.goBackTo(index: 1)
    #expect(routes.count == 2)
    try routes.goBackTo(index: 0)
    #expect(routes.count == 1)
  }

  @Test func popToType() throws {
    var routes = threePushes
    #expect(try routes.popTo(where: { $0.stringValue != nil }))
    #expect(routes.count == 3)
    #expect(try routes.popTo(where: { if case .number = $0 { true } else { false } }))
    #expect(routes.count == 2)
  }

  @Test func popToInstance() throws {
    var routes = threePushes
    #expect(try routes.popTo("non-matching") == false)
    #expect(routes.count == 4)
    #expect(try routes.popTo("two"))
    #expect(routes.count == 3)
    #expect(try routes.popTo(1))
    #expect(routes.count == 2)
  }

  @Test func popToRoot() throws {
    var routes = threePushes
    try routes.popToRoot()
    #expect(routes.count == 1)
  }

  @Test func popToIndex() throws {
    var routes = threePushes
    try routes.popTo(index: 3)
    #expect(routes.count == 4)
    try routes.popTo(index: 2)
    #expect(routes.count == 3)
    try routes.popTo(index: 1)
    #expect(routes.count == 2)
    try routes.popTo(index: 0)
    #expect(routes.count == 1)
  }

  @Test func popToCurrentNavigationRootWithoutPresentedRoutes() throws {
    var routes = threePushes
    try routes.popToCurrentNavigationRoot()
    #expect(routes.count == 1)
  }

  @Test func popToCurrentNavigationRootWithPresentedRoutes() throws {
    // FlowStacks: [.push(1), .sheet("two"), .push(true)] → count 2. The sheet needs navigation
    // here for the push above it to be legal in our model.
    var routes: [Route<JSONValue>] = [
      .root("root", withNavigation: true), .push(1), .sheet("two", withNavigation: true), .push(true),
    ]
    try routes.popToCurrentNavigationRoot()
    expectSame(routes, [.root("root", withNavigation: true), .push(1), .sheet("two", withNavigation: true)])
  }

  @Test func popToCurrentNavigationRootKeepsAPresentedRoot() throws {
    // 0.3.8 `testPopToCurrentNavigationRootPresented`: keeps [root, ◻-1 nav].
    var routes = stack("R+", "◻+-1", "↑2", "↑3")
    try routes.popToCurrentNavigationRoot()
    expectSame(routes, stack("R+", "◻+-1"))
  }

  @Test func dismissAllWhereFirstIsPushed() throws {
    // [↑1, ◻2, ↑3, ▣4, ↑5, ▣6, ↑7]: dismiss() leaves 5, then dismissAll() leaves 1 (+ our root).
    var routes = stack("R+", "↑1", "◻+2", "↑3", "▣+4", "↑5", "▣+6", "↑7")
    try routes.dismiss()
    #expect(routes.count == 6)
    try routes.dismissAll()
    expectSame(routes, stack("R+", "↑1"))
  }

  @Test func dismissAllWhereFirstIsPresented() throws {
    var routes = stack("R+", "▣+1", "◻+2", "↑3", "▣+4", "↑5", "▣+6", "↑7")
    try routes.dismissAll()
    expectSame(routes, stack("R+"))
  }

  @Test func dismissAllWithPresentedLayers() throws {
    // 0.3.8 `testDismissAll`: [root, ↑, ◻, ◻, ◻, ◻, ↑] → [root, ↑].
    var routes = stack("R+", "↑a", "◻b", "◻c", "◻d", "◻+e", "↑f")
    try routes.dismissAll()
    expectSame(routes, stack("R+", "↑a"))
  }

  @Test func dismissAllIsANoOpWithOnlyPushes() throws {
    var routes = stack("R+", "↑a", "↑b")
    try routes.dismissAll()
    expectSame(routes, stack("R+", "↑a", "↑b"))
  }

  @Test func pushPresentAndQueries() throws {
    var routes: [Route<AppScreen>] = [.root(.home)]
    #expect(routes.canPush() == false)
    #expect(routes.canGoBack() == false)
    try routes.presentSheet(.numbersList, withNavigation: true)
    #expect(routes.canPush())
    try routes.push(.numberDetail(number: 1))
    try routes.presentCover(.onboarding(step: 1))
    #expect(routes.canPush() == false)
    #expect(routes.canGoBack(3))
    #expect(routes.canGoBack(4) == false)
    expectSame(
      routes,
      [
        .root(.home), .sheet(.numbersList, withNavigation: true), .push(.numberDetail(number: 1)),
        .cover(.onboarding(step: 1)),
      ])
  }

  @Test func rejectedConvenienceCallsLeaveTheArrayUnchanged() {
    var routes = stack("R+", "↑a", "◻b")
    let before = routes
    #expect(throws: NavigationError.self) { try routes.pop() }
    #expect(throws: NavigationError.self) { try routes.goBack(3) }
    #expect(throws: NavigationError.self) { try routes.push("c") }
    #expect(throws: NavigationError.self) { try routes.dismiss(count: 2) }
    #expect(throws: NavigationError.self) { try routes.popTo(index: 0) }
    expectSame(routes, before)
    var empty: [AnyRoute] = []
    #expect(throws: NavigationError.self) { try empty.presentSheet("x") }
    #expect(empty.isEmpty)
  }
}

/// Navigation by screen identity (FlowStacks' `goBackTo(id:)` and `popTo(id:)`): the topmost
/// match, found by id even when the screen's content changed.
@Suite struct IdentityMethodsTests {
  struct Item: Codable, Hashable, Sendable, Identifiable {
    var id: String
    var detail = 0
  }

  var routes: [Route<Item>] {
    [
      .root(Item(id: "home"), withNavigation: true), .push(Item(id: "list")), .push(Item(id: "item", detail: 1)),
      .sheet(Item(id: "list"), withNavigation: true), .push(Item(id: "item", detail: 2)),
    ]
  }

  @Test func routesAreIdentifiedByTheirScreen() {
    #expect(routes.map(\.id) == ["home", "list", "item", "list", "item"])
  }

  @Test func lookupsFindTheTopmostMatch() {
    #expect(routes.topmostIndex(id: "list") == 3)
    #expect(routes.topmostIndex(id: "item") == 4)
    #expect(routes.topmostIndex(id: "missing") == nil)
    // By value the content counts: the first item is not the second.
    #expect(routes.topmostIndex(of: Item(id: "item", detail: 1)) == 2)
    #expect(routes.topmostIndex(of: Item(id: "item", detail: 3)) == nil)
  }

  @Test func goBackToIDKeepsTheTopmostMatch() throws {
    var routes = routes
    #expect(try routes.goBackTo(id: "list"))
    #expect(routes.count == 4)
    #expect(try routes.goBackTo(id: "missing") == false)
    #expect(routes.count == 4)
    #expect(try routes.goBackTo(id: "home"))
    #expect(routes.count == 1)
  }

  @Test func popToIDRefusesToPopAPresentedRoute() throws {
    var routes = routes
    // The topmost "item" is the top itself: a no-op that answers true.
    #expect(try routes.popTo(id: "item"))
    #expect(routes.count == 5)
    // Popping to "home" would remove the sheet: refused, and nothing changes.
    #expect(throws: NavigationError.self) { try routes.popTo(id: "home") }
    #expect(routes == self.routes)
    #expect(try routes.popTo(id: "missing") == false)
    try routes.dismiss()
    #expect(try routes.popTo(id: "list"))
    #expect(routes.map(\.id) == ["home", "list"])
  }
}
