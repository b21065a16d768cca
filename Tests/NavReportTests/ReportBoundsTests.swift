import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavReport
import NavTestSupport
import Testing

/// A report's page is bounded by design: for 5,000-event sessions of the shapes that make
/// states large (a stack as long as the wire format allows, one whose root changes at every
/// event, screens and
/// causes of 10 KB, tabs with flows), the page stays under 10 MB, and its states are shared nodes
/// rather than a copy per event.
@Suite(.computesAtLength) struct ReportBoundsTests {
  /// The five sessions, each written once for every test of the suite: a test only reads them.
  struct Sessions: Sendable {
    let folder: TemporaryFolder
    let store: SessionStore
    let deep: SessionID
    let rootChanges: SessionID
    let largeScreens: SessionID
    let largeCauses: SessionID
    let tabs: SessionID

    init() throws {
      folder = try TemporaryFolder.forTheRun()
      store = try SessionStore(path: folder.path("bounds.sqlite"))
      deep = try ReportBoundsTests.deepStack(in: store)
      rootChanges = try ReportBoundsTests.rootChangedUnderADeepStack(in: store)
      largeScreens = try ReportBoundsTests.largeScreens(in: store)
      largeCauses = try ReportBoundsTests.largeCauses(in: store)
      tabs = try ReportBoundsTests.tabsWithFlows(in: store)
    }
  }

  static let written = Result { try Sessions() }

  var sessions: Sessions { get throws { try Self.written.get() } }

  static let root = AnyRoute(style: .root(withNavigation: true), screen: .string("home"))

  /// Appends `operations` after a start, as one session of `1 + operations.count` events.
  static func record(
    _ id: String, in store: SessionStore, start: AnyCoordinator = .stack([root]), _ operations: [AnyOperation],
    cause: JSONValue? = nil
  ) throws -> SessionID {
    let session = try SessionID(id)
    var events = [AnyEvent(session: session, at: Timestamp(millisecondsSince1970: 0), operation: .start(start))]
    for (index, operation) in operations.enumerated() {
      var event = AnyEvent(
        session: session, at: Timestamp(millisecondsSince1970: Int64(index + 1) * 100), operation: operation)
      event.cause = cause
      events.append(event)
    }
    _ = try store.append(contentsOf: events)
    return session
  }

  /// 999 pushes, then a pop and a push in turn: a stack as long as the wire format allows
  /// (1,000 routes) from the 1,000th event on, its top changing at every event.
  static func deepStack(in store: SessionStore) throws -> SessionID {
    let longest = TreeLimits.routesInOneStack - 1
    return try record(
      "deep", in: store,
      (0..<longest).map { .push(.string("screen-\($0)")) }
        + (longest..<4_999).map { ($0 - longest).isMultiple(of: 2) ? .pop() : .push(.string("screen-\($0)")) })
  }

  /// 999 pushes, then the root's screen changed 4,000 times under them.
  static func rootChangedUnderADeepStack(in store: SessionStore) throws -> SessionID {
    let longest = TreeLimits.routesInOneStack - 1
    return try record(
      "root-changes", in: store,
      (0..<longest).map { .push(.string("screen-\($0)")) }
        + (longest..<4_999).map { .updateScreen(index: 0, screen: .object(["home": .number(Double($0))])) })
  }

  /// A screen of 10 KB pushed and popped, over and over (deep states of large screens are the
  /// deep stack's case, and cost the store, not the page).
  static func largeScreens(in store: SessionStore) throws -> SessionID {
    let big = JSONValue.object(["detail": .string(String(repeating: "x", count: 10_000))])
    return try record("large-screens", in: store, (0..<4_999).map { $0.isMultiple(of: 2) ? .push(big) : .pop() })
  }

  /// Every event caused by an action of 10 KB.
  static func largeCauses(in store: SessionStore) throws -> SessionID {
    try record(
      "large-causes", in: store, (0..<4_999).map { $0.isMultiple(of: 2) ? .push(.string("detail")) : .pop() },
      cause: .string(String(repeating: "c", count: 10_000)))
  }

  /// Three tabs, each with a stack, and a flow hosted in the first; a random walk across them.
  static func tabsWithFlows(in store: SessionStore) throws -> SessionID {
    let flow = AnyCoordinator.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("flow-root"))])
    let tabs = AnyCoordinator.tabs(
      (0..<3).map { index in
        .stack([
          AnyRoute(style: .root(withNavigation: true), screen: .string("tab-\(index)"), child: index == 0 ? flow : nil)
        ])
      }, selected: 0)
    var random = SeededRandom(seed: 7)
    var depth = [1, 1, 1]
    var operations: [AnyOperation] = []
    while operations.count < 4_999 {
      let tab = Int(random.next() % 3)
      operations.append(.selectTab(tab))
      let path = CoordinatorPath([.tab(tab)])
      if depth[tab] > 1, random.next() % 3 == 0 {
        operations.append(.pop(at: path))
        depth[tab] -= 1
      } else {
        operations.append(.push(.object(["item": .number(Double(operations.count))]), at: path))
        depth[tab] += 1
      }
    }
    return try record("tabs", in: store, start: tabs, Array(operations.prefix(4_999)))
  }

  @Test(arguments: ["deep", "root-changes", "large-screens", "large-causes", "tabs"])
  func aFiveThousandEventSessionsPageStaysUnderTenMegabytes(shape: String) throws {
    let sessions = try sessions
    let store = sessions.store
    let session: SessionID =
      switch shape {
      case "deep": sessions.deep
      case "root-changes": sessions.rootChanges
      case "large-screens": sessions.largeScreens
      case "large-causes": sessions.largeCauses
      default: sessions.tabs
      }
    #expect(try store.summary(of: session).eventCount == 5_000)
    // The middle of the session, where the deep shapes are deepest, in a window of 2,000 events.
    let report = try SessionReport.load(session, from: store, focus: 2_500)
    let bytes = ReportPage.html(report).utf8.count
    #expect(bytes < 10_000_000, "\(shape): \(bytes) bytes")
    #expect(report.events.count == SessionReport.windowSize && report.window.contains(2_500))
    #expect(report.focusState != nil)
  }

  @Test func aStateSharesTheRoutesItKeepsFromTheOneBefore() throws {
    let sessions = try sessions
    let report = try SessionReport.load(sessions.deep, from: sessions.store, focus: 2_500)
    // 2,000 events, states 1,000 routes deep: one route and one cell per push, none per pop (a
    // pop returns to a cell there was).
    #expect(report.states.routes.count <= 2_000 && report.states.cells.count <= 2_000, "\(report.states.cells.count)")
    #expect(!report.states.isFull)
    #expect(report.events.allSatisfy { $0.state != nil })
    // The same state twice is one reference.
    let byState = Dictionary(grouping: report.events, by: { $0.state ?? -1 })
    #expect(byState.values.contains { $0.count >= 2 })
  }

  @Test func statesPastTheTablesLimitAreLeftOutAndThePageSaysSo() throws {
    let sessions = try sessions
    let report = try SessionReport.load(sessions.rootChanges, from: sessions.store, focus: 5_000)
    // Each change of the root rebuilds the cells above it: the table fills, the later states
    // are not in the page, and it says how to see them.
    #expect(report.states.isFull)
    #expect(report.events.contains { $0.state == nil })
    #expect(ReportPage.html(report).contains("the states after the later events are not in this page"))
  }

  @Test func textFromTheStoreIsCutToWhatAPageShows() throws {
    let sessions = try sessions
    let report = try SessionReport.load(sessions.largeCauses, from: sessions.store)
    #expect(report.events.allSatisfy { ($0.cause?.count ?? 0) <= 200 })
    let large = try SessionReport.load(sessions.largeScreens, from: sessions.store)
    #expect(large.states.routes.allSatisfy { ($0.payload?.count ?? 0) <= 120 })
  }
}
