import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// Events one action produced (one `record` call: the same time, origin and cause) are one
/// change in `screen-views` and `transitions`: the screens passed through on the way
/// are neither views nor transitions.
@Suite struct OneActionOneChangeTests {
  let folder: TemporaryFolder
  let store: SessionStore
  let id = sessionID("s")

  init() throws {
    folder = try TemporaryFolder()
    store = try SessionStore(path: folder.path("s.sqlite"))
  }

  func time(_ offset: Int64) -> Timestamp { Timestamp(millisecondsSince1970: 1_795_000_000_000 + offset) }

  func rows(_ table: ExportTable) throws -> [[String: ExportValue]] {
    var rows: [[String: ExportValue]] = []
    try store.export(table) { row in rows.append(Dictionary(uniqueKeysWithValues: zip(table.columns, row.values))) }
    return rows
  }

  /// Records `states` one action each, a second apart, and returns the events each stored.
  @discardableResult
  func record(_ states: [[AnyRoute]]) throws -> [[AnyEvent]] {
    var before: AnyCoordinator?
    var stored: [[AnyEvent]] = []
    for (index, routes) in states.enumerated() {
      let after = AnyCoordinator.stack(routes)
      let outcomes = try store.record(
        session: id, from: before, to: after, at: time(Int64(index) * 1_000), cause: ["action": .number(Double(index))])
      stored.append(outcomes.map(\.event))
      before = after
    }
    return stored
  }

  @Test func aRecordedDeepLinkIsOneTransitionAndNoZeroMillisecondView() throws {
    let stored = try record([
      stack("R+home"), stack("R+home", "◻+numbersList"),
      stack("R+home", "▣+numberDetail", "↑more"),  // the deep link: dismiss, presentCover, push
      stack("R+home", "▣+numberDetail"),
    ])
    #expect(stored[2].count >= 3, "the deep link is several events: \(stored[2].map(\.operation.name))")
    let transitions = try rows(.transitions)
    #expect(
      transitions.map { $0["to_screen"] } == ["home", "numbersList", "more", "numberDetail"].map(ExportValue.text))
    #expect(transitions[2]["from_screen"] == .text("numbersList"))
    #expect(transitions[2]["op"] == .text(stored[2].map(\.operation.name).joined(separator: "+")))
    #expect(transitions[2]["seq"] == .integer(Int64(stored[2].last?.seq ?? 0)))
    let views = try rows(.screenViews)
    #expect(views.map { $0["screen"] } == ["home", "numbersList", "more", "numberDetail"].map(ExportValue.text))
    #expect(
      views.dropLast().allSatisfy { $0["duration_ms"] == .integer(1_000) }, "no 0 ms view of a screen passed through")
  }

  @Test func aRecordedPopToRootIsOneTransition() throws {
    let stored = try record([
      stack("R+home"), stack("R+home", "↑list"), stack("R+home", "↑list", "↑detail"),
      stack("R+home", "↑list", "↑detail", "◻+more"),
      stack("R+home"),
    ])
    let transitions = try rows(.transitions)
    #expect(transitions.map { $0["to_screen"] } == ["home", "list", "detail", "more", "home"].map(ExportValue.text))
    #expect(transitions.last?["from_screen"] == .text("more"))
    // However `diff` expresses it (one goBackToRoot here), the change names its operations.
    #expect(transitions.last?["op"] == .text(stored[4].map(\.operation.name).joined(separator: "+")))
    let views = try rows(.screenViews)
    #expect(views.map { $0["screen"] } == ["home", "list", "detail", "more", "home"].map(ExportValue.text))
    #expect(views.dropLast().allSatisfy { $0["duration_ms"] == .integer(1_000) })
  }

  /// A pop to the root that the app's reducer stores as several events (a dismissal, then the
  /// stack back to its root, as one action) is one change, like the deep link.
  @Test func aPopToRootInSeveralEventsIsOneTransition() throws {
    try record([
      stack("R+home"), stack("R+home", "↑list"), stack("R+home", "↑list", "↑detail"),
      stack("R+home", "↑list", "↑detail", "◻+more"),
    ])
    let action = try store.append(contentsOf: [
      AnyEvent(session: id, at: time(10_000), operation: .dismiss(), cause: "popToRoot"),
      AnyEvent(session: id, at: time(10_000), operation: .goBackToRoot(), cause: "popToRoot"),
    ])
    #expect(action.events.count == 2)
    try store.append(AnyEvent(session: id, at: time(12_000), operation: .push("list")))
    let transitions = try rows(.transitions)
    #expect(
      transitions.map { $0["to_screen"] } == ["home", "list", "detail", "more", "home", "list"].map(ExportValue.text))
    #expect(transitions[4]["from_screen"] == .text("more") && transitions[4]["op"] == .text("dismiss+goBackToRoot"))
    let views = try rows(.screenViews)
    #expect(
      views.map { $0["screen"] } == ["home", "list", "detail", "more", "home", "list"].map(ExportValue.text),
      "no view of detail on the way")
    #expect(views[3]["duration_ms"] == .integer(7_000) && views[4]["duration_ms"] == .integer(2_000))
  }

  /// Events at the same time from different actions (causes) or sources (origins) stay changes
  /// of their own.
  @Test func theSameTimeWithAnotherCauseOrOriginIsAnotherChange() throws {
    var events = [
      event("s", .start(.stack(stack("R+home")))), event("s", .push("a"), offset: 1_000),
      event("s", .push("b"), offset: 1_000),
      event("s", .goBack(), offset: 1_000, origin: .user),
    ]
    events[1].cause = "first"
    events[2].cause = "second"
    events[3].cause = "second"
    for event in events { try store.append(event) }
    #expect(try rows(.transitions).map { $0["to_screen"] } == ["home", "a", "b", "a"].map(ExportValue.text))
    #expect(try rows(.screenViews).map { $0["duration_ms"] } == [1_000, 0, 0, 0].map(ExportValue.integer))
  }

  @Test func twoUserGesturesAreTwoChangesWhateverTheirTime() throws {
    try store.append(AnyEvent(session: id, at: time(0), operation: .start(.stack(stack("R+home", "↑a", "↑b")))))
    // Two back swipes reported in the same millisecond: the user saw `a` between them.
    try store.append(AnyEvent(session: id, at: time(1_000), origin: .user, operation: .pop()))
    try store.append(AnyEvent(session: id, at: time(1_000), origin: .user, operation: .pop()))
    #expect(try rows(.transitions).map { $0["to_screen"] } == [.text("b"), .text("a"), .text("home")])
    let views = try rows(.screenViews)
    #expect(views.map { $0["screen"] } == [.text("b"), .text("a"), .text("home")])
    #expect(views.map { $0["duration_ms"] } == [.integer(1_000), .integer(0), .integer(0)])
  }

  @Test func aRestoredSessionsFirstViewAndTransitionAreMarked() throws {
    let link = SessionLink(session: sessionID("before"), seq: 4)
    try store.append(
      AnyEvent(session: id, at: time(0), operation: .start(.stack(stack("R+home", "↑detail")), restoredFrom: link)))
    try store.append(AnyEvent(session: id, at: time(1_000), operation: .push(["detail": ["n": 2]])))
    try store.append(AnyEvent(session: sessionID("t"), at: time(0), operation: .start(.stack(stack("R+home")))))
    let views = try rows(.screenViews)
    #expect(views.map { $0["restored"] } == [.boolean(true), .boolean(false), .boolean(false)])
    #expect(
      views.map { $0["screen_payload"] } == [.text(#""detail""#), .text(#"{"detail":{"n":2}}"#), .text(#""home""#)])
    let transitions = try rows(.transitions)
    #expect(transitions.map { $0["restored"] } == [.boolean(true), .boolean(false), .boolean(false)])
    #expect(transitions.map { $0["from_path"] } == [.null, .text("/home/detail"), .null])
    #expect(transitions.map { $0["to_path"] } == [.text("/home/detail"), .text("/home/detail/detail"), .text("/home")])
  }
}
