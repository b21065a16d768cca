import NavCore
import NavTestSupport
import Testing

/// An app reads its own events: each operation and event in the words `navstore history`
/// prints, and what an operation carries, for a debug timeline or a bug report's last steps.
struct ReadableEventTests {
  enum Screen: Codable, Hashable, Sendable {
    case feed
    case numberDetail(number: Int)
  }

  @Test func operationsAndEventsReadAsHistoryPrintsThem() throws {
    let push = NavigationOperation<Screen>.push(.numberDetail(number: 3), at: [.route(0), .tab(1)])
    #expect("\(push)" == "push numberDetail in [route 0, tab 1]")
    #expect(push.screen == .numberDetail(number: 3) && push.index == nil && push.count == nil)
    let select = NavigationOperation<Screen>.selectTab(2, at: [.route(0)])
    #expect("\(select)" == "select tab 2 in [route 0]" && select.index == 2 && select.screen == nil)
    let back = NavigationOperation<Screen>.goBack(2)
    #expect("\(back)" == "go back 2 routes" && back.count == 2)
    let event = NavigationEvent(
      session: sessionID("s"), seq: 3, at: Timestamp(millisecondsSince1970: 0), origin: .user,
      operation: back, cause: .string("backTapped"))
    #expect("\(event)" == "3 user: go back 2 routes (because backTapped)")
    let lifecycle = NavigationEvent<Screen>(
      session: sessionID("s"), at: Timestamp(millisecondsSince1970: 0), operation: LifecycleEvent.background.operation()
    )
    #expect("\(lifecycle)" == "- app: the app went to the background")
  }
}
