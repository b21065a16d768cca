import CustomDump
import NavCore
import NavTestSupport
import Testing

/// The operations `diff` chooses: the shortest natural ones.
@Suite struct DiffTests {
  func diff(_ old: [AnyRoute], _ new: [AnyRoute]) throws -> [AnyOperation] {
    try AnyCoordinator.diff(from: .stack(old), to: .stack(new))
  }

  @Test func truncations() throws {
    expectSame(try diff(stack("R+", "↑a", "↑b"), stack("R+")), [.pop(2)])
    expectSame(try diff(stack("R+", "↑a", "◻+b", "↑c"), stack("R+", "↑a")), [.dismiss()])
    expectSame(try diff(stack("R+", "◻+a", "↑b", "▣c", "↑d"), stack("R+")), [.dismiss(2)])
    expectSame(try diff(stack("R+", "↑a", "◻+b"), stack("R+")), [.goBack(2)])
  }

  @Test func appends() throws {
    expectSame(
      try diff(stack("R+"), stack("R+", "↑a", "◻+b", "↑c", "▣d")),
      [.push("a"), .presentSheet("b", withNavigation: true), .push("c"), .presentCover("d")])
  }

  @Test func changedScreensAreUpdatedInPlace() throws {
    expectSame(
      try diff(stack("R+", "↑a", "↑b"), stack("R+x", "↑a", "↑c")),
      [.updateScreen(index: 0, screen: "x"), .updateScreen(index: 2, screen: "c")])
  }

  @Test func aReplacedTailIsRemovedThenAdded() throws {
    expectSame(try diff(stack("R+", "↑a", "↑b"), stack("R+", "↑a", "◻c")), [.pop(), .presentSheet("c")])
  }

  @Test func anythingElseIsSetRoutes() throws {
    // The root changes style: nothing but a replacement expresses it.
    expectSame(try diff(stack("R+", "↑a"), stack("R", "◻a")), [.setRoutes(stack("R", "◻a"))])
    // A push onto a layer without navigation cannot be an operation of its own.
    expectSame(try diff(stack("R"), stack("R", "↑a")), [.setRoutes(stack("R", "↑a"))])
  }

  @Test func nestedChangesAreAddressedByPath() throws {
    let old: AnyCoordinator = .tabs(
      [.stack(stack("R+feed")), .stack([.root("more", child: .stack(stack("R+a")))])], selected: 0)
    let new: AnyCoordinator = .tabs(
      [.stack(stack("R+feed", "↑post")), .stack([.root("more", child: .stack(stack("R+a", "◻b")))])], selected: 1)
    expectSame(
      try AnyCoordinator.diff(from: old, to: new),
      [.selectTab(1), .push("post", at: [.tab(0)]), .presentSheet("b", at: [.tab(1), .route(0)])])
  }

  @Test func changedTabSetsAreSetTabs() throws {
    let old: AnyCoordinator = .tabs([.stack(stack("R"))], selected: 0)
    let new: AnyCoordinator = .tabs([.stack(stack("R")), .stack(stack("R+b"))], selected: 1)
    expectSame(
      try AnyCoordinator.diff(from: old, to: new), [.setTabs([.stack(stack("R")), .stack(stack("R+b"))], selected: 1)])
  }

  @Test func aChildThatAppearsReplacesItsRoute() throws {
    let child: AnyCoordinator = .stack(stack("R+inner"))
    let old = stack("R+", "◻+a")
    let new: [AnyRoute] = [route("R+"), .sheet("a", withNavigation: true, child: child)]
    expectSame(try diff(old, new), [.dismiss(), .presentSheet("a", withNavigation: true, child: child)])
  }
}
