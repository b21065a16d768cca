@_spi(Internals) import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// A restored state fits its source when a launch could have made it: every restore of a stored
/// state (screens dropped, roots only) fits, and a state with a route, a style or a coordinator
/// the source never had does not, named where it differs.
@Suite struct RestoreFitTests {
  @Test func everyRestoreALaunchMakesFitsItsSource() async {
    await checkProperty(count: 500, input: RestoreAcrossVersionsTests.storedStates, Gen.bool) { stored, rootsOnly in
      guard let restored = try? stored.restoring(as: RestoreAcrossVersionsTests.LaterScreen.self) else { return }
      let state = rootsOnly ? restored.state.launchState : restored.state
      let untyped = try WireFormat.decode(AnyCoordinator.self, from: WireFormat.tree(of: state))
      #expect(stored.misfit(ofRestored: untyped) == nil, "source\n\(stored)\nrestored\n\(untyped)")
    }
  }

  /// Every stack of a random tree, by path.
  static func stacks(of state: AnyCoordinator, at path: CoordinatorPath = .top) -> [(CoordinatorPath, [AnyRoute])] {
    switch state {
    case .stack(let routes):
      [(path, routes)]
        + routes.enumerated().flatMap { index, route in
          route.child.map { stacks(of: $0, at: path.appending(.route(index))) } ?? []
        }
    case .tabs(let tabs, _):
      tabs.enumerated().flatMap { index, tab in stacks(of: tab, at: path.appending(.tab(index))) }
    }
  }

  /// Whether `path` is `target` or leads to it: a stack that does not fit is named where it is,
  /// or, inside tabs, where the tabs no longer fit the source's in order.
  static func leads(_ path: CoordinatorPath, to target: CoordinatorPath) -> Bool {
    target.steps.count >= path.steps.count && Array(target.steps.prefix(path.steps.count)) == path.steps
  }

  static let trees = Generator<AnyCoordinator, Shrink.None<AnyCoordinator>> { rng in
    RandomTrees.coordinator(depth: 3, using: &rng)
  }

  @Test func aRouteOrAStyleTheSourceNeverHadDoesNotFitWhereItIs() async {
    await checkProperty(count: 300, input: Self.trees) { source in
      for (path, routes) in Self.stacks(of: source) {
        // One route more than the source's stack had.
        let longer = try source.applying(
          .setRoutes(routes + [Route(style: .sheet(withNavigation: false), screen: "extra")], at: path))
        let misfit = source.misfit(ofRestored: longer)
        #expect(misfit.map { Self.leads($0.path, to: path) } == true, "\(path): \(String(describing: misfit))")
        // A presented route shown another way.
        for (index, route) in routes.enumerated() {
          let style: RouteStyle
          switch route.style {
          case .sheet(let navigation): style = .cover(withNavigation: navigation)
          case .cover(let navigation): style = .sheet(withNavigation: navigation)
          default: continue
          }
          var restyled = routes
          restyled[index].style = style
          let changed = try source.applying(.setRoutes(restyled, at: path))
          let restyledMisfit = source.misfit(ofRestored: changed)
          #expect(restyledMisfit.map { Self.leads($0.path, to: path) } == true, "\(path) route \(index)")
        }
      }
      // The whole state inside a tab, where the source had none.
      #expect(source.misfit(ofRestored: .tabs([source], selected: 0))?.path == .top)
    }
  }

  @Test func tabsFitTheSourcesInOrderWithSomeGone() throws {
    let list = AnyCoordinator.stack([Route(style: .root(withNavigation: true), screen: "list")])
    let deep = AnyCoordinator.stack(stack("R+home", "↑detail", "◻edit"))
    let single = AnyCoordinator.stack([Route(style: .root(withNavigation: false), screen: "settings")])
    let source = AnyCoordinator.tabs([list, deep, single], selected: 1)
    #expect(source.misfit(ofRestored: .tabs([list, single], selected: 0)) == nil, "a tab gone")
    #expect(source.misfit(ofRestored: .tabs([deep], selected: 0)) == nil)
    let swapped = source.misfit(ofRestored: .tabs([deep, list], selected: 0))
    #expect(swapped?.path == .top && swapped?.problem.hasPrefix("tab 1 is none of the source's 3 tabs") == true)
    let error = try #require(swapped).rejection(restoring: SessionLink(session: sessionID("s"), seq: 4))
    #expect(
      "\(error)"
        == "start at the top coordinator rejected: the start restores session s at seq 4, but its top coordinator "
        + "tab 1 is none of the source's 3 tabs, in their order; a restore keeps the shape of the state it restores, "
        + "less the routes it drops")
  }
}
