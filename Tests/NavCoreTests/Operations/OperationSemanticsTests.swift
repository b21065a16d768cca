import CustomDump
import NavCore
import NavTestSupport
import Testing

/// What each accepted operation does, including at nested paths.
@Suite struct OperationSemanticsTests {
  @Test func eachStackOperation() throws {
    let start: AnyCoordinator = .stack(stack("R+", "↑a", "◻+b", "↑c", "▣+d"))
    let cases: [(AnyOperation, [AnyRoute])] = [
      (.push("x"), stack("R+", "↑a", "◻+b", "↑c", "▣+d") + [.push("x")]),
      (.presentSheet("x", withNavigation: true), stack("R+", "↑a", "◻+b", "↑c", "▣+d", "◻+x")),
      (.presentCover("x"), stack("R+", "↑a", "◻+b", "↑c", "▣+d", "▣x")),
      (.goBack(), stack("R+", "↑a", "◻+b", "↑c")),
      (.goBack(4), stack("R+")),
      (.goBackTo(index: 1), stack("R+", "↑a")),
      (.goBackTo(index: 4), stack("R+", "↑a", "◻+b", "↑c", "▣+d")),
      (.goBackToRoot(), stack("R+")),
      (.popToCurrentNavigationRoot(), stack("R+", "↑a", "◻+b", "↑c", "▣+d")),
      (.dismiss(), stack("R+", "↑a", "◻+b", "↑c")),
      (.dismiss(2), stack("R+", "↑a")),
      (.dismissAll(), stack("R+", "↑a")),
      (.setRoutes(stack("R", "◻z")), stack("R", "◻z")),
      (
        .updateScreen(index: 0, screen: "home"), [.root("home", withNavigation: true)] + stack("↑a", "◻+b", "↑c", "▣+d")
      ),
    ]
    for (operation, expected) in cases {
      let next = try start.applying(operation)
      expectSame(next, .stack(expected), "\(operation.name)")
    }
  }

  @Test func popsRemoveOnlyPushes() throws {
    let start: AnyCoordinator = .stack(stack("R+", "◻+a", "↑b", "↑c"))
    expectSame(try start.applying(.pop()), .stack(stack("R+", "◻+a", "↑b")))
    expectSame(try start.applying(.pop(2)), .stack(stack("R+", "◻+a")))
    expectSame(try start.applying(.popTo(index: 1)), .stack(stack("R+", "◻+a")))
    expectSame(try start.applying(.popToCurrentNavigationRoot()), .stack(stack("R+", "◻+a")))
    let pushesOnly: AnyCoordinator = .stack(stack("R+", "↑a", "↑b"))
    expectSame(try pushesOnly.applying(.popToRoot()), .stack(stack("R+")))
  }

  @Test func updateScreenKeepsStyleAndChild() throws {
    let child: AnyCoordinator = .stack(stack("R+", "↑inner"))
    let start: AnyCoordinator = .stack([.root("home"), .sheet("s", withNavigation: true, child: child)])
    let next = try start.applying(.updateScreen(index: 1, screen: ["s": ["v": 2]]))
    expectSame(next, .stack([.root("home"), .sheet(["s": ["v": 2]], withNavigation: true, child: child)]))
  }

  @Test func operationsReachNestedCoordinators() throws {
    let onboarding: AnyCoordinator = .stack(stack("R+welcome"))
    let tabs: AnyCoordinator = .tabs(
      [.stack(stack("R+feed")), .stack([.root("more", withNavigation: true, child: onboarding)])], selected: 0)
    var state: AnyCoordinator = .stack([.root("app", child: tabs)])
    try state.apply(.selectTab(1, at: [.route(0)]))
    try state.apply(.push("terms", at: [.route(0), .tab(1), .route(0)]))
    try state.apply(.push("post", at: [.route(0), .tab(0)]))
    let expected: AnyCoordinator = .stack([
      .root(
        "app",
        child: .tabs(
          [
            .stack(stack("R+feed", "↑post")),
            .stack([.root("more", withNavigation: true, child: .stack(stack("R+welcome", "↑terms")))]),
          ], selected: 1))
    ])
    expectSame(state, expected)
    #expect(try state.coordinator(at: [.route(0), .tab(1), .route(0)]) == .stack(stack("R+welcome", "↑terms")))
  }

  @Test func setTabsReplacesTheTabs() throws {
    let state: AnyCoordinator = .tabs([.stack(stack("R"))], selected: 0)
    let next = try state.applying(.setTabs([.stack(stack("R")), .stack(stack("R+b"))], selected: 1))
    expectSame(next, .tabs([.stack(stack("R")), .stack(stack("R+b"))], selected: 1))
  }

  @Test func aLargeStackIsEditedInPlace() throws {
    var routes: [AnyRoute] = [.root("root", withNavigation: true)]
    for index in 0..<10_000 { try routes.push(.number(Double(index))) }
    try routes.pop(9_999)
    #expect(routes.count == 2)
  }

  @Test func countsCanBeLabelledAsTheWireFormatNamesThem() throws {
    #expect(AnyOperation.pop(2) == .pop(2))
    #expect(AnyOperation.goBack(3, at: [.route(0)]) == .goBack(3, at: [.route(0)]))
    #expect(AnyOperation.dismiss(2) == .dismiss(2))
    #expect(try WireFormat.canonicalString(AnyOperation.pop(5)) == #"{"count":5,"op":"pop"}"#)
    #expect(AnyOperation.pop() == .pop(1))
  }
}
