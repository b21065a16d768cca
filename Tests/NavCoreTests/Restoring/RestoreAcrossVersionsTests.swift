@_spi(Internals) import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// Restoring a stored state into a later version of the app's screen type: undecodable screens
/// cut their stacks, the rest is kept exactly, the result is well-formed, and the strict policy
/// refuses instead.
@Suite struct RestoreAcrossVersionsTests {
  // MARK: A real enum change

  /// The app's screens in version 1.
  enum ScreenV1: Codable, Hashable, Sendable {
    case home, numbersList
    case numberDetail(number: Int)
    case promo(code: String)
    case settings
  }

  /// Version 2: `promo` is gone, `numberDetail` gained a required field, `settings` an optional one.
  enum ScreenV2: Codable, Hashable, Sendable {
    case home, numbersList
    case numberDetail(number: Int, source: String)
    case settings(section: String?)
  }

  /// Version 3: `numberDetail` renamed `article`, its stored name kept in `CodingKeys`.
  enum ScreenV3: Codable, Hashable, Sendable {
    case home, numbersList
    case article(number: Int)
    case promo(code: String)
    case settings

    enum CodingKeys: String, CodingKey {
      case home, numbersList, promo, settings
      case article = "numberDetail"
    }
  }

  /// Version 3 as a team might first write it: the rename without `CodingKeys`.
  enum ScreenV3WithoutKeys: Codable, Hashable, Sendable {
    case home, numbersList
    case article(number: Int)
    case promo(code: String)
    case settings
  }

  static func stored(_ state: Coordinator<ScreenV1>) throws -> AnyCoordinator {
    try WireFormat.decode(AnyCoordinator.self, from: WireFormat.tree(of: state))
  }

  @Test func aRemovedCaseDropsItsRouteAndWhatStandsOnIt() throws {
    let saved = try Self.stored(
      .stack([
        .root(.home, withNavigation: true), .push(.numbersList), .sheet(.promo(code: "X"), withNavigation: true),
        .push(.numbersList),
      ]))
    let restored = try saved.restoring(as: ScreenV2.self)
    #expect(restored.state == .stack([.root(.home, withNavigation: true), .push(.numbersList)]))
    #expect(restored.dropped.count == 1)
    let dropped = try #require(restored.dropped.first)
    #expect(dropped.path == .top)
    #expect(dropped.index == 2)
    #expect(dropped.screenName == "promo")
    #expect(dropped.removedRouteCount == 2)
    #expect("\(dropped)".hasPrefix("route 2 (promo) in the top coordinator, with 1 more route: "))
  }

  @Test func aRenamedCaseKeepsItsScreensAndTheFlowsTheyHostWithItsStoredNameInCodingKeys() throws {
    let saved = try Self.stored(
      .stack([
        .root(.home, withNavigation: true), .push(.numberDetail(number: 1)),
        .sheet(
          .numberDetail(number: 2), withNavigation: true,
          child: .stack([.root(.numbersList), .push(.numberDetail(number: 3))])),
      ]))
    let restored = try saved.restoring(as: ScreenV3.self)
    #expect(restored.dropped.isEmpty)
    #expect(
      restored.state
        == .stack([
          .root(.home, withNavigation: true), .push(.article(number: 1)),
          .sheet(
            .article(number: 2), withNavigation: true, child: .stack([.root(.numbersList), .push(.article(number: 3))])),
        ]))
    // Recorded again, the renamed case keeps its stored name: old and new versions agree.
    #expect(try WireFormat.tree(of: restored.state) == WireFormat.tree(of: saved))
  }

  @Test func aCaseRenamedWithoutCodingKeysIsNamedWithItsTypeInPlainWords() throws {
    let saved = try Self.stored(.stack([.root(.home, withNavigation: true), .push(.numberDetail(number: 1))]))
    let restored = try saved.restoring(as: ScreenV3WithoutKeys.self)
    #expect(restored.state == .stack([.root(.home, withNavigation: true)]))
    let message = try #require(restored.dropped.first?.error.message)
    #expect(
      message
        == "ScreenV3WithoutKeys has no case named 'numberDetail'; if it was renamed, keep its stored name in the "
        + "type's CodingKeys (case newName = \"numberDetail\")")
    // A payload that no longer decodes keeps the decoder's words, naming the field.
    let changed = try Self.stored(.stack([.root(.home), .push(.numberDetail(number: 1))])).restoring(as: ScreenV2.self)
    #expect(changed.dropped.first?.error.message.contains("no case named") == false)
  }

  @Test func anAddedOptionalFieldDecodesAndARequiredOneDoesNot() throws {
    let saved = try Self.stored(
      .stack([
        .root(.home, withNavigation: true), .push(.settings),
        .sheet(.numbersList, withNavigation: true, child: .stack([.root(.numberDetail(number: 3))])),
      ]))
    let restored = try saved.restoring(as: ScreenV2.self)
    // The hosted flow's root no longer decodes: the flow goes, its host stays.
    #expect(
      restored.state
        == .stack([
          .root(.home, withNavigation: true), .push(.settings(section: nil)),
          .sheet(.numbersList, withNavigation: true),
        ]))
    #expect(restored.dropped.map(\.path) == [[.route(2)]])
    #expect(restored.dropped.first?.error.message.contains("source") == true)
  }

  @Test func aTabWhoseRootNoLongerDecodesGoesAndTheSelectionFollows() throws {
    let saved = try Self.stored(
      .tabs(
        [
          .stack([.root(.home)]), .stack([.root(.promo(code: "A"))]), .stack([.root(.settings)]),
        ], selected: 1))
    let restored = try saved.restoring(as: ScreenV2.self)
    #expect(restored.state == .tabs([.stack([.root(.home)]), .stack([.root(.settings(section: nil))])], selected: 0))
    #expect(restored.dropped.map(\.path) == [[.tab(1)]])
  }

  @Test func whenTheTopRootNoLongerDecodesNothingIsRestored() throws {
    let saved = try Self.stored(.stack([.root(.promo(code: "launch")), .push(.home)]))
    #expect(throws: RestoreError.self) { try saved.restoring(as: ScreenV2.self) }
    do {
      _ = try saved.restoring(as: ScreenV2.self)
    } catch {
      guard case .nothingRestorable(let route) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(route.index == 0 && route.path == .top && route.removedRouteCount == 2)
    }
  }

  @Test func theStrictPolicyThrowsNamingTheFirstUndecodableScreen() throws {
    let saved = try Self.stored(
      .stack([
        .root(.home, withNavigation: true, child: .stack([.root(.home), .sheet(.promo(code: "inner"))])),
        .push(.promo(code: "outer")),
      ]))
    do {
      _ = try saved.restoring(as: ScreenV2.self, policy: .strict)
      Issue.record("the strict policy accepted an undecodable screen")
    } catch {
      guard case .undecodableScreen(let route) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(route.path == [.route(0)] && route.index == 1)
    }
    // Everything decodes: both policies give the same state.
    let clean = try Self.stored(.stack([.root(.home), .sheet(.numbersList)]))
    #expect(try clean.restoring(as: ScreenV2.self, policy: .strict) == clean.restoring(as: ScreenV2.self))
  }

  // MARK: Random trees

  /// A later version of an app's screens: any JSON decodes, except objects with the key
  /// `removedCase`, which stand for a case the new version no longer has.
  struct LaterScreen: Codable, Hashable, Sendable {
    var json: JSONValue

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let json = try container.decode(JSONValue.self)
      if json.objectValue?["removedCase"] != nil {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "this version has no case removedCase")
      }
      self.json = json
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(json)
    }
  }

  /// A random tree with about one route in six made undecodable.
  static let storedStates = Generator<AnyCoordinator, Shrink.None<AnyCoordinator>> { rng in
    var state = RandomTrees.coordinator(depth: 3, using: &rng)
    for site in RestoreOracle.sites(of: state) where Int.random(in: 0..<6, using: &rng) == 0 {
      state =
        (try? state.applying(
          .updateScreen(index: site.index, screen: ["removedCase": site.route.screen], at: site.path))) ?? state
    }
    return state
  }

  @Test func restoringCutsExactlyTheUndecodableRoutes() async {
    await checkProperty(count: 500, input: Self.storedStates) { stored in
      let expected = try RestoreOracle.expected(for: stored)
      do {
        let restored = try stored.restoring(as: LaterScreen.self)
        #expect(restored.state.structureError() == nil)
        let untyped = try WireFormat.decode(AnyCoordinator.self, from: WireFormat.tree(of: restored.state))
        #expect(untyped == expected.state, "restored\n\(untyped)\nexpected\n\(String(describing: expected.state))")
        #expect(restored.dropped.map { RestoreOracle.Site(path: $0.path, index: $0.index) } == expected.listed)
        #expect(
          restored.dropped.allSatisfy { $0.screenName == "removedCase" && $0.error.message.contains("removedCase") })
        #expect(stored.totalRoutes == untyped.totalRoutes + restored.dropped.reduce(0) { $0 + $1.removedRouteCount })
      } catch {
        guard case RestoreError.nothingRestorable(let cause) = error else { throw error }
        #expect(expected.state == nil, "nothing restored, but the oracle kept \(String(describing: expected.state))")
        #expect(RestoreOracle.Site(path: cause.path, index: cause.index) == expected.listed.first)
      }
      // Strict: refuses exactly when something is undecodable, naming the first such screen.
      do {
        let strict = try stored.restoring(as: LaterScreen.self, policy: .strict)
        #expect(expected.listed.isEmpty)
        #expect(strict.dropped.isEmpty)
      } catch {
        guard case RestoreError.undecodableScreen(let first) = error else { throw error }
        #expect(RestoreOracle.Site(path: first.path, index: first.index) == expected.listed.first)
      }
    }
  }
}

/// What restoring should give, worked out another way: each undecodable screen, from the last
/// in reading order to the first, is cut with the model's own operations (`goBackTo` above a
/// root; `setRoutes` without the hosted flow, or `setTabs` without the tab, for a root). Cutting
/// from the end keeps every earlier path valid.
enum RestoreOracle {
  struct Site: Hashable, CustomStringConvertible {
    var path: CoordinatorPath
    var index: Int
    var description: String { "(\(path), \(index))" }
  }

  /// Every route of a tree in reading order: a stack's routes from the root up, each route's
  /// hosted flow right after it; tabs in order.
  static func sites(of state: AnyCoordinator, at path: CoordinatorPath = .top) -> [(
    path: CoordinatorPath, index: Int, route: AnyRoute
  )] {
    switch state {
    case .stack(let routes):
      routes.enumerated().flatMap { index, route in
        [(path, index, route)] + (route.child.map { sites(of: $0, at: path.appending(.route(index))) } ?? [])
      }
    case .tabs(let tabs, _):
      tabs.enumerated().flatMap { index, tab in sites(of: tab, at: path.appending(.tab(index))) }
    }
  }

  static func isUndecodable(_ route: AnyRoute) -> Bool { route.screen.objectValue?["removedCase"] != nil }

  static func expected(for stored: AnyCoordinator) throws -> (state: AnyCoordinator?, listed: [Site]) {
    let undecodable = sites(of: stored).filter { isUndecodable($0.route) }.map { Site(path: $0.path, index: $0.index) }
    var state: AnyCoordinator? = stored
    for site in undecodable.reversed() {
      guard let current = state else { break }
      state = try cut(current, at: site.path, index: site.index)
    }
    var listed: [Site] = []
    for site in undecodable where !listed.contains(where: { covers($0, site) }) {
      listed.append(site)
    }
    return (state, listed)
  }

  /// Whether cutting at `earlier` removes `later` too.
  static func covers(_ earlier: Site, _ later: Site) -> Bool {
    let outer = earlier.path.steps
    let inner = later.path.steps
    guard inner.count >= outer.count, Array(inner.prefix(outer.count)) == outer else { return false }
    if inner.count == outer.count { return later.index > earlier.index }
    guard case .route(let host) = inner[outer.count] else { return earlier.index == 0 }
    return host >= earlier.index
  }

  static func cut(_ state: AnyCoordinator, at path: CoordinatorPath, index: Int) throws -> AnyCoordinator? {
    if index > 0 { return try state.applying(.goBackTo(index: index - 1, at: path)) }
    guard let last = path.steps.last else { return nil }
    let parentPath = CoordinatorPath(Array(path.steps.dropLast()))
    switch (try state.coordinator(at: parentPath), last) {
    case (.stack(var routes), .route(let host)):
      routes[host].child = nil
      return try state.applying(.setRoutes(routes, at: parentPath))
    case (.tabs(var tabs, var selected), .tab(let tab)):
      tabs.remove(at: tab)
      if tabs.isEmpty { return try cut(state, at: parentPath, index: 0) }
      if selected == tab { selected = max(0, tab - 1) } else if selected > tab { selected -= 1 }
      return try state.applying(.setTabs(tabs, selected: selected, at: parentPath))
    default:
      return state
    }
  }
}

extension Coordinator {
  /// Every route in the tree, hosted flows included.
  var totalRoutes: Int {
    switch self {
    case .stack(let routes): routes.reduce(0) { $0 + 1 + ($1.child?.totalRoutes ?? 0) }
    case .tabs(let tabs, _): tabs.reduce(0) { $0 + $1.totalRoutes }
    }
  }
}
