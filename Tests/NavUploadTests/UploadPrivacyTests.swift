import Foundation
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import NavUpload
import Testing

/// What leaves the device under each `UploadPrivacy`, checked on what the collector holds.
extension UploaderTests {
  static let personal = SessionContext(
    appVersion: "3.1.0", appBuild: "310", osName: "iOS", osVersion: "18.1", deviceModel: "iPhone16,1",
    locale: "de_DE", timeZone: "Europe/Berlin", userID: "user-4711", app: ["plan": "pro-secret-plan"])

  /// Random sessions over screens with payloads, nested flows and tabs: a start with the
  /// personal context, then the legal ones of random operations, each with a cause.
  static func randomSessions(count: Int, seed: UInt64) -> [AnyEvent] {
    var rng = SeededRandom(seed: seed)
    var events: [AnyEvent] = []
    var time: Int64 = 1_795_000_000_000
    for number in 0..<count {
      let session = sessionID("private-\(number)")
      var state = RandomTrees.coordinator(depth: 2, using: &rng)
      guard state.visibleScreen != nil else { continue }
      var operations = [AnyOperation(.start(state, context: personal))]
      for _ in 0..<Int.random(in: 1...30, using: &rng) {
        let operation = RandomTrees.operation(for: state, using: &rng)
        if case .start = operation.kind { continue }
        guard let next = try? state.applying(operation), next.visibleScreen != nil else { continue }
        state = next
        operations.append(operation)
      }
      for (index, operation) in operations.enumerated() {
        time += Int64.random(in: 1...5_000, using: &rng)
        var event = AnyEvent(session: session, at: Timestamp(millisecondsSince1970: time), operation: operation)
        event.seq = index + 1
        event.cause = ["typed": .string("secret-\(number)-\(index)")]
        events.append(event)
      }
    }
    return events
  }

  /// Records `count` random sessions (`randomSessions`) on the device.
  func recordRandomSessions(count: Int, seed: UInt64) async throws {
    let events = Self.randomSessions(count: count, seed: seed)
    let lines = try events.map { ArraySlice(try WireFormat.canonicalString($0).utf8) }
    #expect(try await device.ingest(lines).accepted == events.count)
  }

  /// `state` with every screen replaced by its name: what the collector must hold.
  static func named(_ state: AnyCoordinator) -> AnyCoordinator {
    func route(_ route: AnyRoute) -> AnyRoute {
      AnyRoute(style: route.style, screen: .string(ScreenName.of(route.screen)), child: route.child.map(named))
    }
    switch state {
    case .stack(let routes): return .stack(routes.map(route))
    case .tabs(let tabs, let selected): return .tabs(tabs.map(named), selected: selected)
    }
  }

  @Test func screenNamesOnlyKeepsWhereTheUserWentAndNothingOfWhatTheySaw() async throws {
    try await recordRandomSessions(count: 40, seed: 7)
    try await uploadEverything(UploadConfiguration(batchEvents: 100, privacy: { _ in .screenNamesOnly }))
    let shop = try collector.store(of: AppName("shop"))
    #expect(try await shop.read { try $0.verify() }.allSatisfy(\.isIntact))
    // Every state, at every seq, is the device's with screens by name: same flows, styles and
    // tabs, so screen views and funnels come out the same.
    for summary in try await device.read({ try $0.sessions() }) {
      for seq in 1...summary.eventCount {
        let held = try await shop.read { try $0.state(of: summary.id, at: seq) }.state
        let expected = Self.named(try await device.read { try $0.state(of: summary.id, at: seq) }.state)
        #expect(held == expected, "\(summary.id) at \(seq)")
      }
      let start = try #require(try await shop.read { try $0.history(of: summary.id, to: 1) }.first)
      #expect(
        start.operation.context
          == SessionContext(
            appVersion: "3.1.0", appBuild: "310", osName: "iOS", osVersion: "18.1", deviceModel: "iPhone16,1",
            locale: "de_DE", timeZone: "Europe/Berlin"))
    }
    let text = String(decoding: try Self.events(shop, format: .jsonl), as: UTF8.self)
    for secret in ["secret-", "user-4711", "pro-secret-plan", "\"number\"", "swift", "\"id\""] {
      #expect(!text.contains(secret), "the collector holds '\(secret)'")
    }
    // Screen views come out as on the device, but for the screens' values and the actions.
    #expect(try Self.screenViews(shop) == Self.screenViews(device))
  }

  /// The screen-views export's rows without what `.screenNamesOnly` keeps on the device: the
  /// screens' values (`screen_payload`, `screen_params`) and the app's actions (`cause`,
  /// `cause_action`).
  static func screenViews(_ store: SessionStore) throws -> [JSONValue] {
    var bytes: [UInt8] = []
    try store.exportEncoded(.screenViews, format: .jsonl) { bytes += $0 }
    return try bytes.split(separator: UInt8(ascii: "\n")).map { line in
      var row = try WireFormat.decode(JSONValue.self, from: Array(line)).objectValue ?? [:]
      // The collector received the events in other writes than the device stored them.
      for column in ["screen_payload", "screen_params", "cause", "cause_action", "received"] { row[column] = nil }
      return .object(row)
    }
  }

  @Test func privacyIsChosenPerSessionAndEverythingKeepsTheDevicesChain() async throws {
    try await recordRandomSessions(count: 6, seed: 11)
    try await uploadEverything(
      UploadConfiguration(privacy: { session in
        session.rawValue.hasSuffix("-1")
          ? .withoutCauses : session.rawValue.hasSuffix("-2") ? .screenNamesOnly : .everything
      }))
    let shop = try collector.store(of: AppName("shop"))
    let sessions = try await device.read { try $0.sessions() }
    #expect(Set(sessions.map(\.id.rawValue)).isSuperset(of: ["private-0", "private-1", "private-2"]))
    for summary in sessions {
      let sent = try await shop.read { try $0.history(of: summary.id) }
      let kept = try await device.read { try $0.history(of: summary.id) }
      #expect(sent.count == kept.count)
      switch summary.id.rawValue.suffix(2) {
      case "-1":
        #expect(sent.allSatisfy { $0.cause == nil }, "\(summary.id)")
        #expect(sent.map(\.operation) == kept.map(\.operation), "\(summary.id): screens whole")
      case "-2":
        #expect(sent.allSatisfy { $0.cause == nil }, "\(summary.id)")
        for seq in 1...summary.eventCount {
          let held = try await shop.read { try $0.state(of: summary.id, at: seq) }.state
          #expect(
            held == Self.named(try await device.read { try $0.state(of: summary.id, at: seq) }.state),
            "\(summary.id) at \(seq)")
        }
        #expect(sent.first?.operation.context?.userID == nil && sent.first?.operation.context?.app == [:])
      default:
        #expect(sent == kept, "\(summary.id): every event as on the device, chain values too")
      }
    }
  }
}
