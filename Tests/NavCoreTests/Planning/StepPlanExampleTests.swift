import NavCore
import NavTestSupport
import Testing

/// FlowStacks' `CalculateStepsTests` and the worked examples E1–E5 of `docs/reference/flowstacks.md`,
/// in the root-at-index-0 model (FlowStacks' arrays behind a root "R" with navigation), under
/// the profiles they name. Each asserts the exact list of states.
@Suite struct StepPlanExampleTests {
  func steps(_ start: [AnyRoute], _ end: [AnyRoute], _ host: HostProfile) throws -> [[AnyRoute]] {
    try AnyCoordinator.plan(from: .stack(start), to: .stack(end), host: host).steps.map { $0.routes ?? [] }
  }

  // MARK: FlowStacks CalculateStepsTests

  @Test func pushOneAtATime() throws {
    let end = stack("R+", "↑-2", "↑-3", "↑-4")
    #expect(
      try steps(stack("R+"), end, .navigationView) == [stack("R+"), stack("R+", "↑-2"), stack("R+", "↑-2", "↑-3"), end])
  }

  @Test(arguments: HostProfile.allCases) func popAllAtOnce(_ host: HostProfile) throws {
    let start = stack("R+", "↑2", "↑3", "↑4")
    #expect(try steps(start, stack("R+"), host) == [start, stack("R+")])
  }

  @Test(arguments: HostProfile.allCases) func presentOneAtATime(_ host: HostProfile) throws {
    let end = stack("R+", "◻-2", "▣-3", "◻-4")
    #expect(try steps(stack("R+"), end, host) == [stack("R+"), stack("R+", "◻-2"), stack("R+", "◻-2", "▣-3"), end])
  }

  @Test(arguments: [HostProfile.navigationView, .navigationStack]) func dismissOneAtATime(_ host: HostProfile) throws {
    let start = stack("R+", "◻2", "▣3", "◻4")
    #expect(try steps(start, stack("R+"), host) == [start, stack("R+", "◻2", "▣3"), stack("R+", "◻2"), stack("R+")])
  }

  @Test func presentAndPushOneAtATime() throws {
    let end = stack("R+", "↑-2", "↑-3", "◻-4", "◻-5")
    #expect(
      try steps(stack("R+"), end, .navigationView)
        == [stack("R+"), stack("R+", "↑-2"), stack("R+", "↑-2", "↑-3"), stack("R+", "↑-2", "↑-3", "◻-4"), end])
  }

  @Test func backToCommonAncestorFirst() throws {
    let end = stack("R+", "↑-2", "↑-3", "◻-4", "◻-5")
    #expect(
      try steps(stack("R+", "↑2", "↑3", "↑4"), end, .navigationView)
        == [stack("R+", "↑-2", "↑-3", "↑4"), stack("R+", "↑-2", "↑-3"), stack("R+", "↑-2", "↑-3", "◻-4"), end])
  }

  @Test func backToCommonAncestorFirstWithoutPoppingWithinExtraPresentationLayers() throws {
    let start = stack("R+", "◻2", "↑3", "◻4", "↑5")
    #expect(
      try steps(start, stack("R+", "↑-2"), .navigationView) == [
        start, stack("R+", "◻2", "↑3"), stack("R+"), stack("R+", "↑-2"),
      ])
  }

  @Test func simultaneousDismissalsWhenSupported() throws {
    let start = stack("R+", "◻2", "↑3", "◻4", "↑5")
    #expect(try steps(start, stack("R+"), .navigationStack17) == [start, stack("R+")])
  }

  // MARK: Worked examples

  @Test func e1DeepLink() throws {
    let end = stack("R+", "↑A", "↑B", "◻+C", "↑D", "↑E")
    let oneAtATime = try AnyCoordinator.plan(from: .stack(stack("R+")), to: .stack(end), host: .navigationView)
    #expect(
      oneAtATime.steps.map { $0.routes ?? [] } == [
        stack("R+"), stack("R+", "↑A"), stack("R+", "↑A", "↑B"), stack("R+", "↑A", "↑B", "◻+C"),
        stack("R+", "↑A", "↑B", "◻+C", "↑D"), end,
      ])
    #expect(oneAtATime.scheduled().map(\.atMs) == [0, 0, 650, 1300, 1950, 2600])
    #expect(oneAtATime.duration() == 2600)
    let merged = try AnyCoordinator.plan(from: .stack(stack("R+")), to: .stack(end), host: .navigationStack)
    #expect(merged.steps.map { $0.routes ?? [] } == [stack("R+"), stack("R+", "↑A", "↑B"), end])
    #expect(merged.scheduled(delayMilliseconds: 100).map(\.atMs) == [0, 0, 100])
  }

  @Test func e2BackToRoot() throws {
    let start = stack("R+", "↑A", "◻+B", "↑C", "▣D")
    #expect(
      try steps(start, stack("R+"), .navigationView) == [
        start, stack("R+", "↑A", "◻+B", "↑C"), stack("R+", "↑A"), stack("R+"),
      ])
    let plan = try AnyCoordinator.plan(from: .stack(start), to: .stack(stack("R+")), host: .navigationStack17)
    #expect(plan.steps.map { $0.routes ?? [] } == [start, stack("R+")])
    #expect(plan.canUpdateAtOnce)
  }

  @Test func e3CommonPrefixThenDivergence() throws {
    let start = stack("R+", "↑A", "↑B", "◻+C", "↑D")
    let end = stack("R+", "↑A2", "↑X", "↑Y")
    #expect(
      try steps(start, end, .navigationView) == [stack("R+", "↑A2", "↑X", "◻+C", "↑D"), stack("R+", "↑A2", "↑X"), end])
    #expect(try steps(start, end, .navigationStack) == [stack("R+", "↑A2", "↑X", "◻+C", "↑D"), end])
  }

  @Test func e4StylesAreComparedNotScreens() throws {
    #expect(try steps(stack("R+", "↑A", "↑B"), stack("R+", "↑A", "↑C"), .navigationView) == [stack("R+", "↑A", "↑C")])
    #expect(
      try steps(stack("R+", "↑A", "↑B"), stack("R+", "↑A", "◻C"), .navigationView)
        == [stack("R+", "↑A", "↑B"), stack("R+", "↑A"), stack("R+", "↑A", "◻C")])
    let plan = try AnyCoordinator.plan(
      from: .stack(stack("R+", "↑A", "↑B", "↑C")), to: .stack(stack("R+", "↑A'", "↑B'")), host: .navigationView)
    #expect(plan.steps.map { $0.routes ?? [] } == [stack("R+", "↑A'", "↑B'", "↑C"), stack("R+", "↑A'", "↑B'")])
    #expect(plan.canUpdateAtOnce)
  }

  @Test func e5RootIncluded() throws {
    // FlowStacks 0.x: [R◻nav, S◻nav, P↑, C▣] → [R'◻nav, X↑, Y↑]; the root's change is content.
    let start = stack("R+R", "◻+S", "↑P", "▣C")
    let end = stack("R+R'", "↑X", "↑Y")
    #expect(
      try steps(start, end, .navigationView)
        == [stack("R+R'", "◻+S", "↑P", "▣C"), stack("R+R'", "◻+S", "↑P"), stack("R+R'"), stack("R+R'", "↑X"), end])
  }

  @Test func aRootThatGainsNavigationChangesInStepZero() throws {
    #expect(
      try steps(stack("R", "◻a"), stack("R+", "↑b"), .navigationView) == [
        stack("R+", "◻a"), stack("R+"), stack("R+", "↑b"),
      ])
  }
}
