import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// A typed event appends as it is, and states print as the trees the command line shows.
@Suite struct TypedAPITests {
  enum Screen: Codable, Hashable, Sendable {
    case home, numbersList
    case numberDetail(number: Int)
  }

  @Test func aTypedEventAppendsAndReadsBack() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("t.sqlite"))
    let id = try SessionID("typed")
    let start = NavigationEvent<Screen>(
      session: id, at: Timestamp.now, operation: .start(.stack([.root(.home, withNavigation: true)])))
    try store.append(start)
    try store.append(
      NavigationEvent<Screen>(session: id, at: Timestamp.now, operation: .presentSheet(.numberDetail(number: 3))))
    let restored = try store.restore(id, as: Screen.self)
    #expect(restored.state == .stack([.root(.home, withNavigation: true), .sheet(.numberDetail(number: 3))]))
  }

  @Test func aStatePrintsAsTheTreeTheCLIShows() {
    let state: Coordinator<Screen> = .stack([
      .root(.home, withNavigation: true), .sheet(.numbersList, withNavigation: true), .push(.numberDetail(number: 3)),
    ])
    #expect(
      "\(state)" == """
        stack
          [0] root, navigation   home
          [1] sheet, navigation  numbersList
          [2] push               numberDetail(number: 3)
        """)
    #expect("\(Route<Screen>.sheet(.numbersList, withNavigation: true))" == "sheet, navigation  numbersList")
  }
}
