@_spi(Internals) import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// Plans over random pairs of trees (depth up to 4, tabs and children), for every profile: the
/// plan ends at the target, step 0 changes contents only, every step is legal by the independent
/// check, and for single stacks the plan is FlowStacks' plan.
@Suite struct PlanProperties {
  static let pairsOfSameKind = Generator<
    (AnyCoordinator, AnyCoordinator), Shrink.None<(AnyCoordinator, AnyCoordinator)>
  > { rng in
    let first = RandomTrees.coordinator(depth: 4, using: &rng)
    var second = RandomTrees.coordinator(depth: 4, using: &rng)
    while second.kind != first.kind { second = RandomTrees.coordinator(depth: 4, using: &rng) }
    return (first, second)
  }

  /// A start and a target reached from it by random operations: shared structure, as in a restore.
  static let relatedPairs = Generator<(AnyCoordinator, AnyCoordinator), Shrink.None<(AnyCoordinator, AnyCoordinator)>> {
    rng in
    let start = RandomTrees.coordinator(depth: 4, using: &rng)
    var target = start
    for _ in 0..<Int.random(in: 1...30, using: &rng) {
      target = (try? target.applying(RandomTrees.operation(for: target, using: &rng))) ?? target
    }
    return (start, target)
  }

  func checkPlan(from start: AnyCoordinator, to target: AnyCoordinator) throws {
    for host in HostProfile.allCases {
      let plan = try AnyCoordinator.plan(from: start, to: target, host: host)
      #expect(plan.steps.last == target, "\(host): the plan does not end at the target")
      guard let first = plan.steps.first else { continue }
      #expect(AnyCoordinator.differsInContentsOnly(start, first), "\(host): step 0 changes structure")
      for (index, (before, after)) in zip(plan.steps, plan.steps.dropFirst()).enumerated() {
        #expect(
          AnyCoordinator.isLegalTransition(from: before, to: after, host: host),
          "\(host): step \(index + 1) is not a legal transition\nfrom \(before)\nto \(after)")
      }
    }
  }

  @Test func plansBetweenIndependentTreesAreLegal() async {
    await checkProperty(count: 300, input: Self.pairsOfSameKind) { start, target in
      try checkPlan(from: start, to: target)
    }
  }

  @Test func plansBetweenRelatedTreesAreLegal() async {
    await checkProperty(count: 300, input: Self.relatedPairs) { start, target in
      try checkPlan(from: start, to: target)
      try checkPlan(from: target, to: start)
    }
  }

  @Test func singleStackPlansAreFlowStacksPlans() async {
    let flatStack = Generator<[AnyRoute], Shrink.None<[AnyRoute]>> { rng in RandomTrees.routes(depth: 0, using: &rng) }
    await checkProperty(count: 500, input: flatStack, flatStack) { start, target in
      for host in HostProfile.allCases {
        let ours = try AnyCoordinator.plan(from: .stack(start), to: .stack(target), host: host).steps
        let oracle = FlowStacksStepOracle.steps(
          from: Array(start.dropFirst()), to: Array(target.dropFirst()), host: host)
        #expect(ours.count <= oracle.count, "\(host): longer than FlowStacks' plan")
        #expect(ours.map { Array(($0.routes ?? []).dropFirst()) } == oracle, "\(host)")
        #expect(
          ours.allSatisfy { $0.routes?.first == target.first }, "\(host): the root is content and changes in step 0")
      }
    }
  }

  /// What the user cannot see costs no delay: until the user's screen is there (everything but
  /// the unselected tabs at its target), every step changes something outside them. The tabs
  /// selected neither at the start nor at the end are built after it (and a change of the tab
  /// set that only hidden tabs make), for restores (from the launch state) and for any change
  /// between related or independent trees, under every profile.
  @Test(arguments: [false, true])
  func hiddenTabsAreBuiltOnceTheUsersScreenIsThere(related: Bool) async {
    await checkProperty(count: 400, input: related ? Self.relatedPairs : Self.pairsOfSameKind) { start, target in
      for (from, to) in [(start, target), (target.launchState, target)] {
        for host in HostProfile.allCases {
          let steps = try AnyCoordinator.plan(from: from, to: to, host: host).steps
          let seen = steps.map(Self.withoutUnselectedTabs)
          guard let arrived = seen.firstIndex(of: Self.withoutUnselectedTabs(to)) else {
            Issue.record("\(host): the user's screen never arrives")
            continue
          }
          for index in seen.indices.dropFirst().prefix(while: { $0 <= arrived }) {
            #expect(
              seen[index] != seen[index - 1],
              "\(host): step \(index) changes only hidden tabs, before the user's screen")
          }
        }
      }
    }
  }

  /// A tree with every unselected tab left out (an empty stack in its place): what the user can
  /// be shown of it.
  static func withoutUnselectedTabs(_ coordinator: AnyCoordinator) -> AnyCoordinator {
    switch coordinator {
    case .stack(let routes):
      return .stack(
        routes.map { route in
          var route = route
          route.child = route.child.map(withoutUnselectedTabs)
          return route
        })
    case .tabs(let tabs, let selected):
      return .tabs(
        tabs.indices.map { $0 == selected ? withoutUnselectedTabs(tabs[$0]) : .stack([]) }, selected: selected)
    }
  }
}
