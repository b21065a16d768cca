import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// A session's context goes in with its `start`, and comes out wherever the session does: the
/// listing, the sessions export, the events export, another store after an import, `verify`.
@Suite struct SessionContextStoreTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  static let context = SessionContext(
    appVersion: "2.3.1", appBuild: "412", osName: "iOS", osVersion: "17.5.1", deviceModel: "iPhone15,2",
    locale: "fr_FR", timeZone: "Europe/Paris", userID: "install-7f3a", app: ["plan": "pro"])

  func storeWithARecordedSession() async throws -> SessionStore {
    let store = try SessionStore(path: folder.path("app.sqlite"))
    let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID("s"), context: Self.context)
    recorder.record(.stack([.root("home", withNavigation: true)]))
    recorder.record(.stack([.root("home", withNavigation: true), .push("detail")]))
    try await recorder.flush()
    try await store.write { try $0.append(event("plain", .start(.stack(stack("R+home"))), offset: 10)) }
    return store
  }

  /// The app's context as the recorder writes it: with the store's device key added.
  static func recorded(_ context: SessionContext, in store: SessionStore) throws -> SessionContext {
    var context = context
    context.deviceKey = try store.deviceKey()
    #expect(context.deviceKey != nil)
    return context
  }

  @Test func theContextIsInTheStartTheListingAndTheExport() async throws {
    let store = try await storeWithARecordedSession()
    let history = try await store.read { try $0.history(of: sessionID("s")) }
    let recorded = try Self.recorded(Self.context, in: store)
    #expect(recorded.deviceKey != nil)
    #expect(history.first?.operation.context == recorded)
    #expect(history.dropFirst().allSatisfy { $0.operation.context == nil })
    #expect(try await store.read { try $0.summary(of: sessionID("s")) }.context == recorded)
    #expect(try await store.read { try $0.summary(of: sessionID("plain")) }.context == nil)

    let rows = try Self.sessionRows(store, ExportFilter())
    let columns = ExportTable.sessions.columns
    let row = try #require(rows.first { $0.first == ExportValue.text("s") })
    func value(_ column: String) -> ExportValue? { columns.firstIndex(of: column).map { row[$0] } }
    #expect(value("app_version") == .text("2.3.1") && value("os_name") == .text("iOS"))
    #expect(value("time_zone") == .text("Europe/Paris") && value("user_id") == .text("install-7f3a"))
    #expect(value("app_context") == .text(#"{"plan":"pro"}"#))
    let plain = try #require(rows.first { $0.first == ExportValue.text("plain") })
    let firstContextColumn = try #require(columns.firstIndex(of: "app_version"))
    let lastContextColumn = try #require(columns.firstIndex(of: "app_context"))
    #expect(plain[firstContextColumn...lastContextColumn].allSatisfy { $0 == .null })

    let withoutPayloads = try Self.sessionRows(store, ExportFilter(omitsPayloads: true))
    let privateRow = try #require(withoutPayloads.first { $0.first == ExportValue.text("s") })
    #expect(
      [privateRow[columns.firstIndex(of: "user_id") ?? 0], privateRow[columns.firstIndex(of: "app_context") ?? 0]]
        == [.null, .null], "no user id, no app keys")
    #expect(privateRow[columns.firstIndex(of: "app_version") ?? 0] == .text("2.3.1"))
  }

  @Test func theContextSurvivesAnEventsExportAndImportAndVerifies() async throws {
    let store = try await storeWithARecordedSession()
    let lines = try Self.eventLines(store)
    #expect(lines.contains { $0.contains(#""context":{"app":{"plan":"pro"},"appBuild":"412""#) })
    let copy = try SessionStore(path: folder.path("copy.sqlite"))
    try await copy.importJSONLines(from: LinesInMemory(lines))
    #expect(
      try await copy.read { try $0.summary(of: sessionID("s")) }.context == (try Self.recorded(Self.context, in: store))
    )
    #expect(
      try await copy.read { try $0.history(of: sessionID("s")) }
        == (try await store.read { try $0.history(of: sessionID("s")) }))
    #expect(try await copy.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  /// The sessions export's rows, synchronously.
  static func sessionRows(_ store: SessionStore, _ filter: ExportFilter) throws -> [[ExportValue]] {
    var rows: [[ExportValue]] = []
    try store.export(.sessions, filter: filter) { rows.append($0.values) }
    return rows
  }

  /// The events export's JSON Lines, synchronously.
  static func eventLines(_ store: SessionStore) throws -> [String] {
    var text = ""
    try store.exportEncoded(.events, format: .jsonl) { chunk in text += String(decoding: chunk, as: UTF8.self) }
    return text.split(separator: "\n").map(String.init)
  }

  @Test func aContextColumnEditedByHandIsFoundByVerify() async throws {
    let path = folder.path("app.sqlite")
    _ = try await storeWithARecordedSession()
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(#"UPDATE sessions SET context = '{"appVersion":"9.9"}' WHERE id = 's'"#)
    try connection.execute(#"UPDATE sessions SET context = '{"osName":"iOS"}' WHERE id = 'plain'"#)
    let results = try await SessionStore(path: path).read { try $0.verify() }
    #expect(results.map { $0.failure?.problem } == [.contextDiffers, .contextDiffers])
  }

  @Test func theRecorderLeavesOutWhatTheWireFormatCannotHold() async throws {
    let store = try SessionStore(path: folder.path("app.sqlite"))
    let long = String(repeating: "é", count: 300)
    let recorder = NavigationRecorder<JSONValue>(
      store: store, session: sessionID("s"), context: SessionContext(appVersion: "", deviceModel: long))
    recorder.record(.stack([.root("home")]))
    try await recorder.flush()
    #expect(
      try await store.read { try $0.summary(of: sessionID("s")) }.context
        == (try Self.recorded(SessionContext(deviceModel: String(long.prefix(256))), in: store)))
  }

  @Test func aContextThatCannotBeWrittenIsRefusedAndWritesNothing() throws {
    let store = try SessionStore(path: folder.path("app.sqlite"))
    let bad = SessionContext(appVersion: "")
    #expect {
      try store.record(
        session: sessionID("s"), from: nil, to: AnyCoordinator.stack(stack("R+home")), at: Timestamp.now, context: bad)
    } throws: { error in
      guard case StoreError.unencodable(let problem) = error else { return false }
      return problem.description.contains("appVersion must be 1 to 256 characters")
    }
    #expect(try store.sessions().isEmpty)
  }
}
