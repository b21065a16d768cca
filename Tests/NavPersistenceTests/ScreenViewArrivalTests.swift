import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// A screen view stands alone: its row says how the user arrived, from which screen, in which
/// tab, by which of the app's actions, and which visit it belongs to.
@Suite struct ScreenViewArrivalTests {
  let folder: TemporaryFolder
  let store: SessionStore

  init() throws {
    folder = try TemporaryFolder()
    store = try SessionStore(path: folder.path("s.sqlite"))
  }

  func rows(_ table: ExportTable, omittingPayloads: Bool = false) throws -> [[String: ExportValue]] {
    var rows: [[String: ExportValue]] = []
    try store.export(table, filter: ExportFilter(omitsPayloads: omittingPayloads)) { row in
      rows.append(Dictionary(uniqueKeysWithValues: zip(table.columns, row.values)))
    }
    return rows
  }

  /// Appends `operations` to session `id`, each a second after the one before unless it is
  /// marked as part of the same action (same time and cause as the one before).
  func append(_ id: String, _ operations: [(AnyOperation, cause: JSONValue?, sameAction: Bool)]) throws {
    var time: Int64 = 1_795_000_000_000
    for (operation, cause, sameAction) in operations {
      if !sameAction { time += 1_000 }
      try store.append(
        AnyEvent(
          session: sessionID(id), at: Timestamp(millisecondsSince1970: time), origin: .app, operation: operation,
          cause: cause))
    }
  }

  /// Text values, `nil` an empty one.
  func texts(_ values: [String?]) -> [ExportValue] { values.map { $0.map(ExportValue.text) ?? .null } }

  static let tabs = AnyCoordinator.tabs([.stack(stack("R+home")), .stack(stack("R+cart"))], selected: 0)

  /// The shopping session: every kind of arrival, in a tab, a sheet, a deep link and a return to
  /// the app.
  func appendShopping() throws {
    let detail: JSONValue = ["numberDetail": ["number": 7]]
    try append(
      "shop",
      [
        (.start(Self.tabs), nil, false),
        (.push("list", at: [.tab(0)]), ["openList": [:]], false),
        (.push(detail, at: [.tab(0)]), ["open": ["number": 7]], false),
        (.presentSheet("settings", withNavigation: true, at: [.tab(0)]), "showSettings", false),
        (.push("about", at: [.tab(0)]), nil, false),
        (.dismiss(at: [.tab(0)]), nil, false),
        (.goBack(at: [.tab(0)]), nil, false),
        (.selectTab(1), ["selectTab": ["index": 1]], false),
        (.background, nil, false),
        (.foreground, nil, false),
        (.selectTab(0), ["deepLink": ["url": "shop://promo"]], false),
        (.push("promo", at: [.tab(0)]), ["deepLink": ["url": "shop://promo"]], true),
        (.setRoutes(stack("R+home"), at: [.tab(0)]), nil, false),
        (.setRoutes(stack("R+home", "↑offer"), at: [.tab(0)]), nil, false),
      ])
  }

  @Test func eachViewSaysHowTheUserArrivedAndWhere() throws {
    try appendShopping()
    let views = try rows(.screenViews)
    func column(_ name: String) -> [ExportValue] { views.map { $0[name] ?? .null } }
    #expect(
      column("screen")
        == [
          "home", "list", "numberDetail", "settings", "about", "numberDetail", "list", "cart", "cart", "promo", "home",
          "offer",
        ].map(ExportValue.text))
    #expect(
      column("arrival")
        == [
          "start", "push", "push", "present", "push", "dismiss", "back", "tab", "tab", "deep_link", "back", "replace",
        ].map(ExportValue.text))
    #expect(
      column("direction")
        == [
          "forward", "forward", "forward", "forward", "forward", "return", "return", "forward", "forward", "forward",
          "return", "forward",
        ].map(ExportValue.text))
    #expect(
      column("previous_screen")
        == texts([
          nil, "home", "list", "numberDetail", "settings", "about", "numberDetail", "list", "list", "cart", "promo",
          "home",
        ]))
    #expect(views[2]["previous_path"] == .text("/home/list"))
    #expect(column("tab") == [0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0].map { ExportValue.integer($0) })
    #expect(
      column("tab_screen")
        == [
          "home", "home", "home", "home", "home", "home", "home", "cart", "cart", "home", "home",
          "home",
        ].map(ExportValue.text))
    #expect(
      column("cause_action")
        == texts([
          nil, "openList", "open", "showSettings", nil, nil, nil, "selectTab", "selectTab", "deepLink", nil, nil,
        ]))
    #expect(
      column("presentation")
        == [
          "root", "push", "push", "sheet", "push", "push", "push", "root", "root", "push", "root", "push",
        ].map(ExportValue.text))
    #expect(views[2]["cause"] == .text(#"{"open":{"number":7}}"#))
    #expect(views[2]["screen_params"] == .text(#"{"number":7}"#))
    #expect(views[1]["screen_params"] == .null, "a screen that is only its name has no parameters")
    // Ids: the session and the seq a view began after; the view after the return to the app
    // continues the visit of the view before the background.
    #expect(
      column("view_id")
        == column("seq").map { seq in
          guard case .integer(let seq) = seq else { return .null }
          return .text("shop#\(seq)")
        })
    #expect(views[8]["resumed"] == .boolean(true) && views[8]["visit_id"] == views[7]["view_id"])
    let firstOfVisit = views.filter { $0["view_id"] == $0["visit_id"] }
    #expect(firstOfVisit.count == views.count - 1, "one row continues a visit")
  }

  @Test func transitionsCarryTheirCause() throws {
    try appendShopping()
    let transitions = try rows(.transitions)
    let byScreen = Dictionary(transitions.map { ($0["to_screen"], $0) }, uniquingKeysWith: { first, _ in first })
    #expect(byScreen[.text("promo")]?["cause_action"] == .text("deepLink"))
    #expect(byScreen[.text("promo")]?["cause"] == .text(#"{"deepLink":{"url":"shop://promo"}}"#))
    #expect(byScreen[.text("settings")]?["cause"] == .text(#""showSettings""#))
    #expect(byScreen[.text("about")]?["cause_action"] == .null)
  }

  /// Under `--omit-payloads` the app's values go (the cause, the screen's parameters) and its
  /// vocabulary stays (the action's name, as the screen's name does).
  @Test func omittingPayloadsKeepsTheActionsNameOnly() throws {
    try appendShopping()
    let views = try rows(.screenViews, omittingPayloads: true)
    #expect(views.allSatisfy { $0["cause"] == .null && $0["screen_params"] == .null && $0["screen_payload"] == .null })
    #expect(views[2]["cause_action"] == .text("open"))
    let transitions = try rows(.transitions, omittingPayloads: true)
    #expect(transitions.allSatisfy { $0["cause"] == .null })
    #expect(transitions.contains { $0["cause_action"] == .text("deepLink") })
  }

  /// A restored session's first view was the app's doing: its arrival is `restore`.
  @Test func aRestoredSessionsFirstViewArrivedByTheRestore() throws {
    try append("before", [(.start(.stack(stack("R+home", "↑list"))), nil, false)])
    try append(
      "after",
      [
        (
          .start(.stack(stack("R+home", "↑list")), restoredFrom: SessionLink(session: sessionID("before"), seq: 1)),
          nil, false
        ),
        (.push("detail"), nil, false),
      ])
    let views = try rows(.screenViews).filter { $0["session"] == .text("after") }
    #expect(views.map { $0["arrival"] } == [.text("restore"), .text("push")])
    #expect(views.map { $0["restored"] } == [.boolean(true), .boolean(false)])
  }

  /// A screen brought on top while the app was in the background is first seen at the return:
  /// that row begins its visit, and its previous screen is the one the user last saw.
  @Test func aVisitBegunInTheBackgroundBeginsAtTheReturn() throws {
    try append(
      "bg",
      [
        (.start(.stack(stack("R+home"))), nil, false),
        (.background, nil, false),
        (.push("a"), nil, false),
        (.push("b"), nil, false),
        (.foreground, nil, false),
      ])
    let views = try rows(.screenViews)
    #expect(views.map { $0["screen"] } == [.text("home"), .text("b")])
    #expect(views[1]["visit_id"] == views[1]["view_id"] && views[1]["resumed"] == .boolean(true))
    #expect(views[1]["previous_screen"] == .text("home"), "the user never saw a")
    #expect(views[1]["arrival"] == .text("push"))
  }
}
