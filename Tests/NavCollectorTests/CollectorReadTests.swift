import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NavCollector
@_spi(Internals) import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// The read endpoints: pages of sessions newest first with a cursor, a session's history, state
/// and report, each as the command line gives it, and none of another app's.
@Suite struct CollectorReadTests {
  let folder: TemporaryFolder
  let store: SQLiteFleet
  let shop: SessionStore
  let reader: String
  let ingest: String

  init() throws {
    folder = try TemporaryFolder()
    store = try SQLiteFleet(path: folder.path("collector.sqlite"))
    reader = try store.createToken(app: AppName("shop"), role: .read).text
    ingest = try store.createToken(app: AppName("shop"), role: .ingest).text
    shop = try store.store(of: AppName("shop"))
    // Five sessions, active one minute apart: s-0 oldest, s-4 newest; s-4 has three events.
    for index in 0..<5 {
      try shop.append(
        AnyEvent(
          session: try SessionID("s-\(index)"),
          at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(index) * 60_000),
          operation: .start(.stack([.root("home", withNavigation: true)]))))
    }
    try shop.append(
      AnyEvent(
        session: try SessionID("s-4"), at: Timestamp(millisecondsSince1970: 1_795_000_300_000),
        operation: .push("detail")))
    try shop.append(
      AnyEvent(
        session: try SessionID("s-4"), at: Timestamp(millisecondsSince1970: 1_795_000_301_000), operation: .background))
  }

  func get(_ client: some TestClientProtocol, _ uri: String, token: String? = nil) async throws -> TestResponse {
    try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(token ?? reader)"])
  }

  @Test func pagesOfSessionsNewestFirstWithACursor() async throws {
    try await Application(router: Collector.router(fleet: store)).test(.router) { client in
      var ids: [String] = []
      var uri = "/v1/sessions?limit=2"
      var pages = 0
      while true {
        let response = try await get(client, uri)
        #expect(response.status == .ok)
        let page = try WireFormat.decode(JSONValue.self, from: String(buffer: response.body))
        guard case .array(let sessions)? = page.objectValue?["sessions"] else {
          Issue.record("no sessions")
          return
        }
        ids += sessions.compactMap { $0.objectValue?["session"]?.stringValue }
        pages += 1
        guard case .string(let next)? = page.objectValue?["next"] else { break }
        uri = "/v1/sessions?limit=2&after=\(next)"
      }
      #expect(ids == ["s-4", "s-3", "s-2", "s-1", "s-0"] && pages == 3)
      let since = try await get(client, "/v1/sessions?since=2026-11-18T11:08:00.000Z")
      let recent = String(buffer: since.body)
      #expect(recent.contains("\"s-4\"") && recent.contains("\"s-2\"") && !recent.contains("\"s-1\""))
      // A row is the sessions export's.
      let first = try await get(client, "/v1/sessions?limit=1")
      #expect(String(buffer: first.body).contains(#"{"session":"s-4","events":3,"#))
      #expect(
        String(buffer: first.body).contains(
          #""phase":"background","launch":null,"launch_reason":null,"dropped_routes":0,"local_start":null,"received":"#)
      )
      for bad in [
        "/v1/sessions?limit=0", "/v1/sessions?limit=abc", "/v1/sessions?after=zzz", "/v1/sessions?since=yesterday",
      ] {
        #expect(try await get(client, bad).status == .badRequest, "\(bad)")
      }
      #expect(
        try await get(client, "/v1/sessions", token: ingest).status == .forbidden, "an ingest token lists nothing")
    }
  }

  @Test func historyStateAndReportAreTheCommandLines() async throws {
    try await Application(router: Collector.router(fleet: store)).test(.router) { client in
      let history = try await get(client, "/v1/sessions/s-4/history")
      #expect(history.status == .ok && history.headers[.contentType] == "application/x-ndjson")
      let events = try await shop.read { try $0.history(of: sessionID("s-4")) }
      let expected = try events.map { try WireFormat.canonicalString($0) + "\n" }.joined()
      #expect(String(buffer: history.body) == expected)
      let part = try await get(client, "/v1/sessions/s-4/history?from=2&to=2")
      #expect(String(buffer: part.body).split(separator: "\n").count == 1)
      let state = try await get(client, "/v1/sessions/s-4/state?at=1")
      let first = try await shop.read { try $0.state(of: sessionID("s-4"), at: 1) }.state
      #expect(String(buffer: state.body) == (try WireFormat.canonicalString(first)) + "\n")
      #expect(try await get(client, "/v1/sessions/s-4/state?at=9").status == .badRequest)
      let report = try await get(client, "/v1/sessions/s-4/report")
      #expect(report.status == .ok && String(buffer: report.body).lowercased().hasPrefix("<!doctype html>"))
      for missing in ["/v1/sessions/none/history", "/v1/sessions/none/state", "/v1/sessions/none/report"] {
        #expect(try await get(client, missing).status == .notFound)
      }
      // Another app's reader sees none of it.
      let blog = try store.createToken(app: AppName("blog"), role: .read).text
      #expect(try await get(client, "/v1/sessions/s-4/history", token: blog).status == .notFound)
      #expect(
        String(buffer: try await get(client, "/v1/sessions", token: blog).body) == #"{"sessions":[],"next":null}"#
          + "\n")
    }
  }

  /// A bundle is what `navstore fixture` writes from the store: the session and the one it was
  /// restored from, the start's personal context and the hashes left out; with `keep_personal`,
  /// the lines as `navstore bundle` writes them.
  @Test func aBundleIsTheFixtureOfTheSessionAndTheOnesItContinues() async throws {
    var context = SessionContext(appVersion: "2.0", userID: "user-9", app: ["plan": "pro"])
    context.host = .navigationStack17
    let start = AnyEvent(
      session: try SessionID("s-5"), at: Timestamp(millisecondsSince1970: 1_795_000_400_000),
      operation: .start(
        .stack([.root("home", withNavigation: true), .push("detail")]),
        restoredFrom: SessionLink(session: try SessionID("s-4"), seq: 3), context: context))
    _ = try await shop.write { try $0.append(start) }
    let whole = folder.path("whole.jsonl")
    try await shop.read { _ = try $0.bundle(try SessionID("s-5"), to: whole) }
    let bundled = try Data(contentsOf: URL(fileURLWithPath: whole))
    let fixture = try bundled.split(separator: 0x0A).map { try FixtureLine.rewrite($0, keepingPersonal: false) }
      .joined()
    try await Application(router: Collector.router(fleet: store)).test(.router) { client in
      let response = try await get(client, "/v1/sessions/s-5/bundle")
      #expect(response.status == .ok && response.headers[.contentType] == "application/x-ndjson")
      #expect(response.headers[.contentDisposition] == #"attachment; filename="s-5.jsonl""#)
      let body = String(buffer: response.body)
      #expect(Array(body.utf8) == Array(fixture), "\(body)")
      #expect(body.split(separator: "\n").count == 4 && body.firstRange(of: "user-9") == nil)
      #expect(body.firstRange(of: #""host":"navigation-stack-17""#) != nil && body.firstRange(of: "\"hash\"") == nil)
      let kept = try await get(client, "/v1/sessions/s-5/bundle?keep_personal=true")
      #expect(Array(String(buffer: kept.body).utf8) == Array(bundled))
      #expect(try await get(client, "/v1/sessions/none/bundle").status == .notFound)
      #expect(try await get(client, "/v1/sessions/s-5/bundle?personal=1").status == .badRequest)
      #expect(try await get(client, "/v1/sessions/s-5/bundle", token: ingest).status == .forbidden)
    }
  }

  /// A bundle walks back at most so many sessions, the newest: a line of launches each
  /// restoring the one before costs a read per session, so one request's reads stay bounded.
  @Test func aBundleWalksBackABoundedLine() async throws {
    for index in 5..<9 {
      let start = AnyEvent(
        session: try SessionID("s-\(index)"), at: Timestamp(millisecondsSince1970: 1_795_001_000_000 + Int64(index)),
        operation: .start(
          .stack([.root("home", withNavigation: true)]),
          restoredFrom: SessionLink(session: try SessionID("s-\(index - 1)"), seq: 1)))
      _ = try await shop.write { try $0.append(start) }
    }
    let backend = SQLiteBackend(fleet: store, logger: Logger(label: "test"))
    let line = try await backend.lineage(of: try SessionID("s-8"), app: AppName("shop"), limit: 3)
    #expect(line.map(\.id.rawValue) == ["s-6", "s-7", "s-8"])
    let whole = try await backend.lineage(of: try SessionID("s-8"), app: AppName("shop"), limit: 100)
    #expect(whole.map(\.id.rawValue) == ["s-4", "s-5", "s-6", "s-7", "s-8"])
  }
}

extension CollectorReadTests {
  /// What `navstore export` writes, from the store itself.
  static func export(
    _ store: SessionStore, _ table: ExportTable, _ format: ExportFormat, filter: ExportFilter = ExportFilter()
  ) throws -> [UInt8] {
    var bytes: [UInt8] = []
    _ = try store.exportEncoded(table, format: format, filter: filter) { bytes += $0 }
    return bytes
  }

  @Test func anExportIsTheCommandLinesStreamed() async throws {
    try await Application(router: Collector.router(fleet: store)).test(.router) { client in
      for table in ExportTable.allCases {
        for format in ExportFormat.allCases {
          let response = try await get(client, "/v1/export/\(table.rawValue)?format=\(format.rawValue)")
          guard format.writes(table) else {
            // Segment calls and OpenTelemetry records are made from the screen views only.
            #expect(response.status == .badRequest, "\(table) \(format)")
            continue
          }
          #expect(response.status == .ok, "\(table) \(format)")
          #expect(
            Array(response.body.readableBytesView) == (try Self.export(shop, table, format)), "\(table) \(format)")
        }
      }
      let one = try await get(client, "/v1/export/events?format=csv&session=s-4")
      #expect(String(buffer: one.body).split(separator: "\r\n").count == 4, "a header and s-4's three events")
      #expect(try await get(client, "/v1/export/events?format=xml").status == .badRequest)
      #expect(try await get(client, "/v1/export/events").status == .badRequest)
      #expect(try await get(client, "/v1/export/users?format=csv").status == .notFound)
      #expect(try await get(client, "/v1/export/events?format=csv&session=none").status == .notFound)
    }
  }

  /// `until`, `app_version` and `device_model` narrow the export as the command line's
  /// `--until`, `--app-version` and `--device` do; an `until` before `since` is a 400.
  @Test func anExportNarrowedByTimeVersionAndDevice() async throws {
    for (index, version) in ["3.1", "3.2"].enumerated() {
      let start = AnyEvent(
        session: try SessionID("v-\(version)"),
        at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(index) * 60_000),
        operation: .start(
          .stack([.root("home", withNavigation: true)]),
          context: SessionContext(appVersion: version, deviceModel: "iPad14,\(index)")))
      try await shop.write { try $0.append(start) }
    }
    // A screen and an action with a field to keep beside one to leave out.
    var kept = AnyEvent(
      session: try SessionID("v-3.2"), at: Timestamp(millisecondsSince1970: 1_795_000_061_000),
      operation: .push(["a": ["b": 1, "x": "Ann"]]))
    kept.cause = ["c": "kept", "d": "Ann"]
    try await shop.write { [kept] in try $0.append(kept) }
    let until = Timestamp(millisecondsSince1970: 1_795_000_120_000)
    let asked: [(String, ExportFilter)] = [
      ("app_version=3.1", ExportFilter(appVersion: "3.1")),
      ("device_model=iPad14,1&until=\(until.rfc3339)", ExportFilter(until: until, deviceModel: "iPad14,1")),
      ("until=\(until.rfc3339)", ExportFilter(until: until)),
      (
        "omit_payloads=true&keep_payload_fields=a.b,c&app_version=3.2",
        ExportFilter(appVersion: "3.2", omitsPayloads: true, keptPayloadFields: [["a", "b"], ["c"]])
      ),
    ]
    try await Application(router: Collector.router(fleet: store)).test(.router) { client in
      for (query, filter) in asked {
        for table in ExportTable.allCases {
          let response = try await get(client, "/v1/export/\(table.rawValue)?format=csv&\(query)")
          let expected = try Self.export(shop, table, .csv, filter: filter)
          #expect(response.status == .ok && Array(response.body.readableBytesView) == expected, "\(table) \(query)")
          #expect(expected != (try Self.export(shop, table, .csv)), "\(table) \(query) leaves rows out")
        }
      }
      let backwards = try await get(
        client, "/v1/export/events?format=csv&since=2026-11-21&until=2026-11-20")
      #expect(backwards.status == .badRequest)
      #expect(String(buffer: backwards.body).contains("until"))
      let narrowed = try await get(
        client, "/v1/export/screen-views?format=csv&omit_payloads=true&keep_payload_fields=a.b,c&app_version=3.2")
      let text = String(buffer: narrowed.body)
      #expect(text.contains(#""{""a"":{""b"":1}}""#) && text.contains(#""{""c"":""kept""}""#), "\(text)")
      #expect(!text.contains("Ann"))
      for wrong in ["keep_payload_fields=a", "omit_payloads=true&keep_payload_fields=a..b"] {
        let refused = try await get(client, "/v1/export/events?format=csv&\(wrong)")
        #expect(refused.status == .badRequest && String(buffer: refused.body).contains("keep_payload_fields"))
      }
    }
  }
}

extension JSONValue {
  fileprivate var stringValue: String? {
    if case .string(let text) = self { text } else { nil }
  }
}
