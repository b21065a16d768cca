@_spi(Internals) import NavCore
import NavTestSupport
import Testing

/// The legality check on hand-picked transitions, legal and not, per profile.
@Suite struct TransitionLegalityTests {
  func legal(_ old: [AnyRoute], _ new: [AnyRoute], _ host: HostProfile) -> Bool {
    AnyCoordinator.isLegalTransition(from: .stack(old), to: .stack(new), host: host)
  }

  @Test func navigationView() {
    let host = HostProfile.navigationView
    #expect(legal(stack("R+", "↑a"), stack("R+", "↑b"), host))  // contents only
    #expect(legal(stack("R", "↑a"), stack("R+", "↑a"), host))  // the root's withNavigation is content
    #expect(legal(stack("R+", "↑a", "↑b", "↑c"), stack("R+"), host))  // any trailing pushes
    #expect(legal(stack("R+", "↑a", "◻+b", "↑c"), stack("R+", "↑a"), host))  // one layer with its pushes
    #expect(legal(stack("R+"), stack("R+", "◻x"), host))
    #expect(!legal(stack("R+", "◻a", "◻b"), stack("R+"), host))  // two layers
    #expect(!legal(stack("R+"), stack("R+", "↑a", "↑b"), host))  // two pushes
    #expect(!legal(stack("R+", "↑a"), stack("R+", "◻a"), host))  // a style changes in place
    #expect(!legal(stack("R+", "◻a"), stack("R+", "↑b"), host))  // dismiss then push
  }

  @Test func navigationStack() {
    let host = HostProfile.navigationStack
    #expect(legal(stack("R+"), stack("R+", "↑a", "↑b"), host))
    #expect(legal(stack("R+", "◻+a", "↑b"), stack("R+", "↑x", "↑y"), host))  // dismiss, then pushes
    #expect(legal(stack("R+"), stack("R+", "◻+a", "↑b", "↑c"), host))  // present, then pushes
    #expect(!legal(stack("R+", "◻a", "◻b"), stack("R+"), host))
    #expect(!legal(stack("R+"), stack("R+", "◻a", "◻b"), host))
  }

  @Test func navigationStack17() {
    let host = HostProfile.navigationStack17
    #expect(legal(stack("R+", "◻a", "↑b", "▣c"), stack("R+"), host))  // every dismissal at once
    #expect(legal(stack("R+", "◻a", "▣c"), stack("R+", "↑x"), host))  // truncation, then pushes
    #expect(legal(stack("R+"), stack("R+", "▣+a", "↑b"), host))
    #expect(!legal(stack("R+"), stack("R+", "▣a", "▣b"), host))
  }

  @Test func trees() {
    let tabs = { (selected: Int, first: [AnyRoute], second: [AnyRoute]) -> AnyCoordinator in
      .tabs([.stack(first), .stack(second)], selected: selected)
    }
    let host = HostProfile.navigationView
    #expect(
      AnyCoordinator.isLegalTransition(
        from: tabs(0, stack("R"), stack("R")), to: tabs(1, stack("R"), stack("R")), host: host))
    #expect(
      !AnyCoordinator.isLegalTransition(
        from: tabs(0, stack("R+"), stack("R")), to: tabs(1, stack("R+", "↑a"), stack("R")), host: host))
    #expect(
      !AnyCoordinator.isLegalTransition(from: tabs(0, stack("R"), stack("R")), to: .stack(stack("R")), host: host))
    // A child appears bare at a route that stays; not with a pushed screen already in it.
    let bare: AnyCoordinator = .stack([.root("home", child: .stack(stack("R+a")))])
    let grown: AnyCoordinator = .stack([.root("home", child: .stack(stack("R+a", "↑b")))])
    #expect(AnyCoordinator.isLegalTransition(from: .stack(stack("Rhome")), to: bare, host: host))
    #expect(!AnyCoordinator.isLegalTransition(from: .stack(stack("Rhome")), to: grown, host: host))
    // Two stacks changing at once is two changes.
    let twoStacks: AnyCoordinator = .stack([
      .root("home", withNavigation: true, child: .stack(stack("R+a", "↑b"))), .push("p"),
    ])
    #expect(!AnyCoordinator.isLegalTransition(from: bare, to: twoStacks, host: host))
    // A tab set change: new tabs bare, kept tabs as they were.
    #expect(
      AnyCoordinator.isLegalTransition(
        from: .tabs([.stack(stack("R"))], selected: 0), to: tabs(1, stack("R"), stack("R")), host: host))
    #expect(
      !AnyCoordinator.isLegalTransition(
        from: .tabs([.stack(stack("R"))], selected: 0), to: tabs(1, stack("R"), stack("R+", "↑x")), host: host))
  }

  @Test func contentsOnly() {
    #expect(AnyCoordinator.differsInContentsOnly(.stack(stack("R", "↑a")), .stack(stack("R+", "↑b"))))
    #expect(!AnyCoordinator.differsInContentsOnly(.stack(stack("R", "↑a")), .stack(stack("R"))))
  }
}
