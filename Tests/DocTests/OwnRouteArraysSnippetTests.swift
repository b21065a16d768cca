// swift-format-ignore-file
// (The Swift between "doc begin" and "doc end" is the docs' text, byte for byte.)
import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// The guide's "Keeping your own route arrays": an app with three tabs, an account flow hosted
/// by the profile screen and sheets with navigation keeps FlowStacks' arrays, records them as
/// one tree without the model, and gets its arrays back from the next launch's restore.
@Suite struct OwnRouteArraysSnippetTests {
  enum Screen: Codable, Hashable, Sendable {
    case feed, search, profile, account, numberDetail(number: Int), editor, plan(Int)
  }

  enum Action: Codable {
    case appLaunched, numbersTapped
  }


  @Test func anAppsOwnArraysAreRecordedAndRestored() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("app.sqlite"))
    let resume = try await store.launch(as: Screen.self)

    // doc begin
    struct AppRoutes {                    // the app's arrays, and the one tree NavStore records of them
      var tab = 0, feed: [FlowRoute] = [], search: [FlowRoute] = [], profile: [FlowRoute] = [], account: [FlowRoute] = []

      var tree: Coordinator<Screen> {
        func stack(_ root: Screen, _ routes: [FlowRoute], hosting child: Coordinator<Screen>? = nil) -> Coordinator<Screen> {
          .stack([.root(root, withNavigation: true, child: child)] + routes.map { NavCore.Route(style: $0.navStoreStyle, screen: $0.screen) })
        }
        return .tabs([stack(.feed, feed), stack(.search, search), stack(.profile, profile, hosting: stack(.account, account))], selected: tab)
      }

      init(restoring tree: Coordinator<Screen>? = nil) {        // the arrays again, from a restore
        let routes = { (stack: Coordinator<Screen>?) in (stack?.routes ?? []).dropFirst().map(FlowRoute.init) }
        guard case .tabs(let tabs, let selected)? = tree, tabs.count == 3 else { return }
        (tab, feed, search, profile, account) =
          (selected, routes(tabs[0]), routes(tabs[1]), routes(tabs[2]), routes(tabs[2].routes?.first?.child))
      }
    }
    // doc end

    // doc begin
    var routes = AppRoutes(restoring: resume.state)
    let appRecorder = NavigationRecorder<Screen>(
      store: store, session: try SessionID("own-arrays"), launch: resume)
    appRecorder.record(routes.tree, cause: Action.appLaunched)
    routes.feed.append(.push(.numberDetail(number: 4)))          // a button: the app's change
    appRecorder.record(routes.tree, cause: Action.numbersTapped)
    routes.feed.removeLast()                                     // a back swipe, through the binding
    appRecorder.record(routes.tree, origin: .user)
    appRecorder.record(.background)                              // the scene left: the launch settled
    // doc end

    // Deeper: a sheet with navigation over the profile, pushes in the account flow, the
    // profile tab selected.
    routes.tab = 2
    routes.profile = [.sheet(.editor, withNavigation: true), .push(.plan(1))]
    routes.account = [.push(.plan(2)), .cover(.numberDetail(number: 5), withNavigation: false)]
    routes.search = [.push(.numberDetail(number: 6))]
    appRecorder.record(routes.tree, cause: Action.numbersTapped)
    try await appRecorder.flush()

    let history = try await store.read { try $0.history(of: try SessionID("own-arrays")) }
    // The start, the app's push with its action, the user's back swipe without one.
    #expect(history.count > 4 && history[1].cause != nil)
    #expect(history[2].origin == .user && history[2].cause == nil)
    #expect(history.contains { $0.operation.name == "background" })
    #expect(try await store.read { try $0.verify() }.allSatisfy(\.isIntact))

    // The next launch restores the tree, and the arrays come back as they were.
    let next = try await store.launch(as: Screen.self)
    #expect(next.outcome == .restored, "the background settled the first launch: \(next.outcome)")
    let restored = AppRoutes(restoring: next.state)
    #expect(restored.tab == 2)
    #expect(restored.feed == routes.feed && restored.search == routes.search)
    #expect(restored.profile == routes.profile && restored.account == routes.account)
    #expect(restored.tree == routes.tree)
  }
}

/// FlowStacks' `Route<Screen>` (`FlowRoute` in the guide), with the members FlowStacks gives it.
enum FlowRoute: Hashable {
  case push(OwnRouteArraysSnippetTests.Screen)
  case sheet(OwnRouteArraysSnippetTests.Screen, withNavigation: Bool)
  case cover(OwnRouteArraysSnippetTests.Screen, withNavigation: Bool)

  var screen: OwnRouteArraysSnippetTests.Screen {
    switch self {
    case .push(let screen), .sheet(let screen, _), .cover(let screen, _): screen
    }
  }

  var withNavigation: Bool {
    switch self {
    case .push: false
    case .sheet(_, let navigation), .cover(_, let navigation): navigation
    }
  }

  var style: FlowRouteStyle {
    switch self {
    case .push: .push
    case .sheet(_, let navigation): .sheet(withNavigation: navigation)
    case .cover(_, let navigation): .cover(withNavigation: navigation)
    }
  }
}

/// FlowStacks' `RouteStyle`, with the members FlowStacks gives it.
enum FlowRouteStyle: Hashable {
  case push, sheet(withNavigation: Bool), cover(withNavigation: Bool)

  var isSheet: Bool { if case .sheet = self { true } else { false } }
  var isCover: Bool { if case .cover = self { true } else { false } }
}

extension FlowRoute {
  /// The app's screen, as the guide's app names it.
  typealias Screen = OwnRouteArraysSnippetTests.Screen
}

// doc begin
extension FlowRoute {                   // one of FlowStacks' routes, to NavStore's and back
  var navStoreStyle: NavCore.RouteStyle { style.isCover ? .cover(withNavigation: withNavigation) : style.isSheet ? .sheet(withNavigation: withNavigation) : .push }
  init(_ route: NavCore.Route<Screen>) {
    switch route.style {
    case .sheet(let navigation): self = .sheet(route.screen, withNavigation: navigation)
    case .cover(let navigation): self = .cover(route.screen, withNavigation: navigation)
    case .push, .root: self = .push(route.screen)
    }
  }
}
// doc end
