import NavCore
import Testing

/// An app's own screen type, named as apps name it.
private enum Screen: Codable, Hashable, Sendable {
  case home
  case detail(Int)
}

/// With the library's parameter named `Screen`, this extension constrained nothing (`Screen ==
/// Screen` named the parameter twice) and `.home` did not compile; named `AppScreen`, it is an
/// extension of the app's routes only.
extension Route where AppScreen == Screen {
  fileprivate var isHome: Bool { screen == .home }
}

extension Coordinator where AppScreen == Screen {
  fileprivate var topIsHome: Bool {
    guard case .stack(let routes) = self else { return false }
    return routes.last?.isHome ?? false
  }
}

@Suite struct AppScreenNameTests {
  @Test func anExtensionWhereAppScreenIsTheAppsScreenReachesItsCases() {
    #expect(Route<Screen>.root(.home, withNavigation: true).isHome)
    #expect(!Route<Screen>.push(.detail(3)).isHome)
    #expect(Coordinator<Screen>.stack([.root(.home, withNavigation: true)]).topIsHome)
    #expect(!Coordinator<Screen>.stack([.root(.home, withNavigation: true), .push(.detail(3))]).topIsHome)
  }
}
