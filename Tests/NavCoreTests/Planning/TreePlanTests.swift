import NavCore
import NavTestSupport
import Testing

/// The order the planner uses in trees: a layer before the screens inside it, a tab selected
/// before its stack moves.
@Suite struct TreePlanTests {
  @Test func aPresentedFlowAppearsAtItsRootThenGrows() throws {
    let flow: AnyCoordinator = .stack(stack("R+welcome", "↑terms", "↑privacy"))
    let end: AnyCoordinator = .stack([route("R+home"), .sheet("onboarding", child: flow)])
    let plan = try AnyCoordinator.plan(from: .stack(stack("R+home")), to: end, host: .navigationView)
    #expect(
      plan.steps == [
        .stack(stack("R+home")),
        .stack([route("R+home"), .sheet("onboarding", child: .stack(stack("R+welcome")))]),
        .stack([route("R+home"), .sheet("onboarding", child: .stack(stack("R+welcome", "↑terms")))]),
        end,
      ])
  }

  @Test func aChildIsBuiltBeforeTheNextRouteCoversIt() throws {
    let flow: AnyCoordinator = .stack(stack("R+a", "↑b"))
    let end: AnyCoordinator = .stack([route("R+home"), .sheet("s", child: flow), route("◻top")])
    let plan = try AnyCoordinator.plan(from: .stack(stack("R+home")), to: end, host: .navigationStack)
    #expect(
      plan.steps == [
        .stack(stack("R+home")),
        .stack([route("R+home"), .sheet("s", child: .stack(stack("R+a")))]),
        .stack([route("R+home"), .sheet("s", child: flow)]),
        end,
      ])
  }

  /// The tab the user leaves ends hidden: its pop waits until the screen they land on is there.
  @Test func theSelectionMovesFirstAndTheTabLeftChangesOnceHidden() throws {
    let start: AnyCoordinator = .tabs([.stack(stack("R+feed", "↑post")), .stack(stack("R+search"))], selected: 0)
    let end: AnyCoordinator = .tabs([.stack(stack("R+feed")), .stack(stack("R+search", "↑result"))], selected: 1)
    let plan = try AnyCoordinator.plan(from: start, to: end, host: .navigationView)
    #expect(
      plan.steps == [
        start,
        .tabs([.stack(stack("R+feed", "↑post")), .stack(stack("R+search"))], selected: 1),
        .tabs([.stack(stack("R+feed", "↑post")), .stack(stack("R+search", "↑result"))], selected: 1),
        end,
      ])
  }

  /// A sheet over the tab the user leaves goes while it is on screen: the selection cannot
  /// move under it. Its pushes stay until the tab is hidden.
  @Test func aSheetOverTheTabLeftGoesBeforeTheSelectionMoves() throws {
    let start: AnyCoordinator = .tabs(
      [.stack(stack("R+feed", "↑post", "◻compose")), .stack(stack("R+search"))], selected: 0)
    let end: AnyCoordinator = .tabs([.stack(stack("R+feed")), .stack(stack("R+search", "↑result"))], selected: 1)
    let plan = try AnyCoordinator.plan(from: start, to: end, host: .navigationView)
    #expect(
      plan.steps == [
        start,
        .tabs([.stack(stack("R+feed", "↑post")), .stack(stack("R+search"))], selected: 0),
        .tabs([.stack(stack("R+feed", "↑post")), .stack(stack("R+search"))], selected: 1),
        .tabs([.stack(stack("R+feed", "↑post")), .stack(stack("R+search", "↑result"))], selected: 1),
        end,
      ])
  }

  @Test func newTabsAppearBareWithTheSelection() throws {
    let start: AnyCoordinator = .tabs([.stack(stack("R+feed"))], selected: 0)
    let end: AnyCoordinator = .tabs([.stack(stack("R+feed")), .stack(stack("R+inbox", "↑thread"))], selected: 1)
    let plan = try AnyCoordinator.plan(from: start, to: end, host: .navigationView)
    #expect(
      plan.steps == [
        start,
        .tabs([.stack(stack("R+feed")), .stack(stack("R+inbox"))], selected: 1),
        end,
      ])
  }

  @Test func aChildOfAKeptRouteChangesAfterWhatCoveredItIsGone() throws {
    let start: AnyCoordinator = .stack([
      .root("home", withNavigation: true, child: .stack(stack("R+a"))), route("◻cover"),
    ])
    let end: AnyCoordinator = .stack([.root("home", withNavigation: true, child: .stack(stack("R+a", "↑b")))])
    let plan = try AnyCoordinator.plan(from: start, to: end, host: .navigationView)
    #expect(plan.steps == [start, .stack([.root("home", withNavigation: true, child: .stack(stack("R+a")))]), end])
  }

  @Test func theTopCoordinatorCannotChangeKind() {
    #expect(throws: PlanError.topCoordinatorKindChanged(from: .stack, to: .tabs)) {
      try AnyCoordinator.plan(from: .stack(stack("R")), to: .tabs([.stack(stack("R"))], selected: 0))
    }
  }

  @Test(arguments: HostProfile.allCases) func tenThousandRouteStacks(_ host: HostProfile) throws {
    let deep: [AnyRoute] = [route("R+")] + (0..<10_000).map { AnyRoute.push(.number(Double($0))) }
    let toRoot = try AnyCoordinator.plan(from: .stack(deep), to: .stack(stack("R+")), host: host)
    #expect(toRoot.steps.count == 2)
    var changed = deep
    changed[5_000].screen = "changed"
    let inPlace = try AnyCoordinator.plan(from: .stack(deep), to: .stack(changed), host: host)
    #expect(inPlace.steps == [.stack(changed)])
    let covered = Array(deep.prefix(9_990)) + [route("◻+sheet")] + (0..<9).map { AnyRoute.push(.number(Double($0))) }
    let plan = try AnyCoordinator.plan(from: .stack(deep), to: .stack(covered), host: host)
    #expect(plan.steps.last == .stack(covered))
    if host == .navigationStack {
      let restore = try AnyCoordinator.plan(from: .stack(stack("R+")), to: .stack(deep), host: host)
      #expect(restore.steps.count == 2)
    }
  }
}
