import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// `omitsPayloads`: exports for people who must not see user data keep names, paths and times,
/// and nothing of screens' payloads or the app's actions.
@Suite struct ExportPrivacyTests {
  let folder: TemporaryFolder
  let store: SessionStore
  static let secret = "alice@example.com"

  init() throws {
    folder = try TemporaryFolder()
    store = try SessionStore(path: folder.path("p.sqlite"))
    try store.append(event("s", .start(.stack(stack("R+home")))))
    var push = event("s", .push(.object(["profile": .object(["email": .string(Self.secret)])])), offset: 1)
    push.cause = .object(["openedProfile": .object(["email": .string(Self.secret)])])
    try store.append(push)
    try store.append(
      event("s", .presentSheet(.object(["name": .string("settings"), "owner": .string(Self.secret)])), offset: 2))
  }

  func text(_ table: ExportTable, _ format: ExportFormat, omitting: Bool) throws -> String {
    var bytes: [UInt8] = []
    try store.exportEncoded(table, format: format, filter: ExportFilter(omitsPayloads: omitting)) { bytes += $0 }
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func theEventsKeepNamesAndTimesAndLoseOperationAndCause() throws {
    let full = try text(.events, .csv, omitting: false)
    #expect(full.contains(Self.secret), "the full export has the payloads")
    let omitted = try text(.events, .csv, omitting: true)
    #expect(!omitted.contains(Self.secret))
    var rows: [[ExportValue]] = []
    try store.export(.events, filter: ExportFilter(omitsPayloads: true)) { rows.append($0.values) }
    var fullRows: [[ExportValue]] = []
    try store.export(.events) { fullRows.append($0.values) }
    let operation = ExportTable.events.columns.firstIndex(of: "operation") ?? -1
    let cause = ExportTable.events.columns.firstIndex(of: "cause") ?? -1
    #expect(rows.count == 3 && rows.allSatisfy { $0[operation] == .null && $0[cause] == .null })
    // Every other column is the full export's: names, paths, times, hashes.
    let kept = ExportTable.events.columns.indices.filter { $0 != operation && $0 != cause }
    #expect(rows.map { row in kept.map { row[$0] } } == fullRows.map { row in kept.map { row[$0] } })
    #expect(rows.map { $0[5] } == [.null, .text("profile"), .text("settings")])
  }

  @Test func theOtherTablesLeaveOutTheirPayloadColumnsAndKeepTheRest() throws {
    let payloadColumns: Set = [
      "user_id", "app_context", "screen_payload", "screen_params", "from_payload", "to_payload", "cause",
    ]
    for table in [ExportTable.sessions, .screenViews, .transitions] {
      let omitted = try rows(table, omitting: true)
      let full = try rows(table, omitting: false)
      #expect(!(try text(table, .csv, omitting: true)).contains(Self.secret), "\(table.rawValue)")
      #expect(!(try text(table, .jsonl, omitting: true)).contains(Self.secret), "\(table.rawValue)")
      if table != .sessions {
        #expect(
          (try text(table, .csv, omitting: false)).contains(Self.secret), "the full export shows the screens' values")
      }
      let columns = table.columns
      for (index, column) in columns.enumerated() {
        if payloadColumns.contains(column) {
          #expect(omitted.allSatisfy { $0[index] == .null }, "\(table.rawValue).\(column)")
        } else {
          #expect(omitted.map { $0[index] } == full.map { $0[index] }, "\(table.rawValue).\(column)")
        }
      }
    }
  }

  /// Segment calls and OpenTelemetry records leave out what the tables leave out: the screens'
  /// values, the actions, and the user id (Segment's `userId`, OpenTelemetry's `user.id`).
  @Test func theEventShapedFormatsLeaveOutWhatTheTablesLeaveOut() throws {
    let user = "user-7@example.com"
    try store.append(
      AnyEvent(
        session: sessionID("u"), at: Timestamp(millisecondsSince1970: 1_795_000_000_000),
        operation: .start(.stack(stack("R+home")), context: SessionContext(appVersion: "2.4", userID: user))))
    var push = event("u", .push(.object(["profile": .object(["email": .string(Self.secret)])])), offset: 1)
    push.cause = .object(["openedProfile": .object(["email": .string(Self.secret)])])
    try store.append(push)
    for (format, userKey) in [(ExportFormat.segment, "\"userId\""), (.otlp, "\"user.id\"")] {
      let full = try text(.screenViews, format, omitting: false)
      let omitted = try text(.screenViews, format, omitting: true)
      #expect(full.contains(Self.secret) && full.contains(user) && full.contains(userKey), "\(format)")
      #expect(!omitted.contains(Self.secret) && !omitted.contains(user) && !omitted.contains(userKey), "\(format)")
      // Names, versions and the action's name stay.
      for kept in ["openedProfile", "2.4", "\"home\""] { #expect(omitted.contains(kept), "\(format): \(kept)") }
    }
  }

  /// A table's rows, as values.
  func rows(_ table: ExportTable, omitting: Bool) throws -> [[ExportValue]] {
    var rows: [[ExportValue]] = []
    try store.export(table, filter: ExportFilter(omitsPayloads: omitting)) { rows.append($0.values) }
    return rows
  }

  /// `keptPayloadFields`: the fields named stay in the payload columns (and the screen's
  /// parameters are those of what is kept), the rest goes; a value that keeps nothing is empty.
  @Test func keptFieldsStayAndTheRestGoes() throws {
    let product = "sku-123"
    let context = SessionContext(app: ["tier": "gold", "email": .string(Self.secret)])
    try store.append(event("k", .start(.stack(stack("R+home")), context: context)))
    var detail = event(
      "k",
      .push(.object(["productDetail": .object(["id": .string(product), "shopper": .string(Self.secret)])])),
      offset: 1)
    detail.cause = .object([
      "addToCart": .object([
        "items": .array([
          .object(["productId": .string(product), "note": .string(Self.secret)]), .object(["note": .string("x")]),
        ])
      ])
    ])
    try store.append(detail)
    let filter = ExportFilter(
      session: sessionID("k"), omitsPayloads: true,
      keptPayloadFields: [["productDetail", "id"], ["addToCart", "items", "productId"], ["tier"]])
    for table in ExportTable.allCases {
      var bytes: [UInt8] = []
      try store.exportEncoded(table, format: .csv, filter: filter) { bytes += $0 }
      #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.secret), "\(table.rawValue)")
    }
    var views: [[String: ExportValue]] = []
    try store.export(.screenViews, filter: filter) {
      views.append(Dictionary(uniqueKeysWithValues: zip(ExportTable.screenViews.columns, $0.values)))
    }
    let shown = views.last ?? [:]
    #expect(shown["screen_payload"] == .text(#"{"productDetail":{"id":"sku-123"}}"#))
    #expect(shown["screen_params"] == .text(#"{"id":"sku-123"}"#))
    #expect(shown["cause"] == .text(#"{"addToCart":{"items":[{"productId":"sku-123"}]}}"#))
    #expect(views.first?["screen_payload"] == .null, "a screen with none of the fields keeps nothing")
    var events: [[String: ExportValue]] = []
    try store.export(.events, filter: filter) {
      events.append(Dictionary(uniqueKeysWithValues: zip(ExportTable.events.columns, $0.values)))
    }
    #expect(events.last?["cause"] == shown["cause"] && events.last?["operation"] == .null)
    var transitions: [[String: ExportValue]] = []
    try store.export(.transitions, filter: filter) {
      transitions.append(Dictionary(uniqueKeysWithValues: zip(ExportTable.transitions.columns, $0.values)))
    }
    #expect(transitions.last?["to_payload"] == shown["screen_payload"] && transitions.last?["cause"] == shown["cause"])
    var sessions: [[String: ExportValue]] = []
    try store.export(.sessions, filter: filter) {
      sessions.append(Dictionary(uniqueKeysWithValues: zip(ExportTable.sessions.columns, $0.values)))
    }
    #expect(sessions.first?["app_context"] == .text(#"{"tier":"gold"}"#) && sessions.first?["user_id"] == .null)
  }

  @Test func theEventsWireFormatCannotOmitPayloads() throws {
    #expect(throws: StoreError.payloadsInWireFormat) { try text(.events, .jsonl, omitting: true) }
    #expect(throws: StoreError.payloadsInWireFormat) {
      try store.export(.events, format: .jsonl, filter: ExportFilter(omitsPayloads: true)) { _ in }
    }
  }
}
