import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import PropertyBased
import Testing

/// A screen the app cannot store leaves no hole in the history: the change that showed it,
/// and the one that took it away, are recorded with the screen marked as not storable, every
/// later event applies, and the session verifies. A screen that comes back different from its
/// JSON is found by the recorder in debug builds.
@Suite struct UnstorableScreenTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  /// Screens of which some cannot be encoded, as a case holding a closure cannot.
  enum HoleScreen: Codable, Hashable, Sendable {
    case plain(JSONValue)
    case unstorable(JSONValue)

    init(from decoder: any Decoder) throws {
      self = .plain(try decoder.singleValueContainer().decode(JSONValue.self))
    }

    func encode(to encoder: any Encoder) throws {
      switch self {
      case .plain(let json):
        var container = encoder.singleValueContainer()
        try container.encode(json)
      case .unstorable:
        throw EncodingError.invalidValue(
          self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "a closure cannot be encoded"))
      }
    }

    /// Every third screen, by its JSON, cannot be stored.
    static func from(_ json: JSONValue) -> HoleScreen {
      json.canonicalString.utf8.count % 3 == 0 ? .unstorable(json) : .plain(json)
    }
  }

  static func typed(_ state: AnyCoordinator) -> Coordinator<HoleScreen> {
    switch state {
    case .stack(let routes):
      .stack(routes.map { Route(style: $0.style, screen: HoleScreen.from($0.screen), child: $0.child.map(typed)) })
    case .tabs(let tabs, let selected):
      .tabs(tabs.map(typed), selected: selected)
    }
  }

  /// Whether `stored` is `shown` with each screen that cannot be stored marked as such.
  static func isMarked(_ stored: AnyCoordinator, _ shown: AnyCoordinator) -> Bool {
    switch (stored, shown) {
    case (.stack(let storedRoutes), .stack(let routes)):
      guard storedRoutes.count == routes.count else { return false }
      return zip(storedRoutes, routes).allSatisfy { storedRoute, route in
        guard storedRoute.style == route.style else { return false }
        switch HoleScreen.from(route.screen) {
        case .plain(let json): guard storedRoute.screen == json else { return false }
        case .unstorable:
          guard UnstorableScreen.found(in: storedRoute.screen)?.screen == "HoleScreen.unstorable" else { return false }
        }
        switch (storedRoute.child, route.child) {
        case (nil, nil): return true
        case (let storedChild?, let child?): return isMarked(storedChild, child)
        default: return false
        }
      }
    case (.tabs(let storedTabs, let storedSelected), .tabs(let tabs, let selected)):
      return storedSelected == selected && storedTabs.count == tabs.count
        && zip(storedTabs, tabs).allSatisfy { isMarked($0, $1) }
    default:
      return false
    }
  }

  @Test func randomSessionsWithScreensThatCannotBeStoredReplayToWhatWasShown() async {
    let folder = self.folder
    await checkProperty(count: 40, input: TreeGen.session(depth: 3, length: 1...12)) { initial, operations in
      try await Self.recordAndReplay(initial, operations, in: folder)
    }
  }

  /// Records `initial` and the states `operations` lead to as typed screens of which some
  /// cannot be stored, and checks that the history replays to each of them, marked.
  static func recordAndReplay(_ initial: AnyCoordinator, _ operations: [AnyOperation], in folder: TemporaryFolder)
    async throws
  {
    let store = try SessionStore(path: folder.path("holes-\(UUID().uuidString).sqlite"))
    let session = sessionID("holes")
    let recorder = NavigationRecorder<HoleScreen>(store: store, session: session)
    var shown = initial
    var states = [initial]
    recorder.record(typed(initial))
    for operation in operations {
      guard let next = try? shown.applying(operation), next.kind == shown.kind, next != shown else { continue }
      shown = next
      states.append(next)
      recorder.record(typed(next))
    }
    try await recorder.flush()  // a screen kept as not storable is no failure to flush
    let stored = try await store.read { try $0.state(of: session) }.state
    #expect(isMarked(stored, shown))
    let verified = try await store.read { try $0.verify([session]) }
    #expect(verified.allSatisfy { $0.isIntact })
    // Every state shown is in the history, in order: no change went missing.
    var replayed: [AnyCoordinator] = []
    try store.replayHistory(of: session) { _, state in
      if replayed.last != state { replayed.append(state) }
    }
    // (A change may take several operations: each state handed over is one the replay passes.
    // States that differ only in screens that cannot be stored are one state in the history.)
    var next = 0
    for state in replayed {
      while next < states.count, isMarked(state, states[next]) { next += 1 }
    }
    #expect(next == states.count, "\(states.count - next) of \(states.count) states are missing from the history")
  }

  /// The sheet's open and close are both in the history; the failure is reported once for the
  /// screen, on `failures`, and a restore leaves the route out saying why.
  @Test func aSheetThatCannotBeStoredIsRecordedAndReportedOnce() async throws {
    let store = try SessionStore(path: folder.path("sheet.sqlite"))
    let session = sessionID("sheet")
    let reported = Protected<[RecordingFailure]>([])
    let recorder = NavigationRecorder<HoleScreen>(
      store: store, session: session, onFailure: { failure in reported.withLock { $0.append(failure) } })
    let home = Route<HoleScreen>.root(.plain("home"), withNavigation: true)
    recorder.record(.stack([home]))
    for _ in 0..<2 {
      recorder.record(.stack([home, .sheet(.unstorable("composer"))]))
      recorder.record(.stack([home]))
    }
    try await recorder.flush()
    let names = try await store.read { try $0.history(of: session) }.map(\.operation.name)
    #expect(names == ["start", "presentSheet", "dismiss", "presentSheet", "dismiss"])
    let failures = reported.withLock { $0 }
    #expect(failures.count == 1)
    guard case .unstorableScreen(let screen, _)? = failures.first?.error else {
      Issue.record("expected an unstorable screen, got \(failures)")
      return
    }
    #expect(screen == "HoleScreen.unstorable")
    #expect(failures.first?.unrecordedChanges == 0)
    #expect("\(failures[0])".contains("could not be encoded (") && !"\(failures[0])".contains("not recorded"))
    recorder.record(.stack([home, .sheet(.unstorable("composer"))]))
    try await recorder.flush()
    let restored = try await store.read { try $0.restore(session, as: HoleScreen.self) }
    #expect(restored.state == .stack([home]))
    #expect(restored.dropped.first?.screenName == "HoleScreen.unstorable")
    #expect(
      restored.dropped.first?.error.message.hasPrefix("HoleScreen.unstorable could not be stored when it was recorded")
        == true)
  }

  /// A document kept by its id comes back empty: the recorder of a debug build says which
  /// screen and which field, once.
  @Test func aScreenThatComesBackDifferentIsReportedByTypeAndField() async throws {
    final class Document: Codable, Hashable, Sendable {
      let id: Int
      let text: String
      init(id: Int, text: String) {
        self.id = id
        self.text = text
      }
      enum CodingKeys: String, CodingKey { case id }
      required init(from decoder: any Decoder) throws {
        id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
        text = ""
      }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
      }
      static func == (a: Document, b: Document) -> Bool { a.id == b.id && a.text == b.text }
      func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }
    enum EditorScreen: Codable, Hashable, Sendable {
      case home
      case editor(Document)
    }
    let store = try SessionStore(path: folder.path("lossy.sqlite"))
    let reported = Protected<[RecordingFailure]>([])
    let recorder = NavigationRecorder<EditorScreen>(
      store: store, session: sessionID("lossy"), onFailure: { failure in reported.withLock { $0.append(failure) } })
    let home = Route<EditorScreen>.root(.home, withNavigation: true)
    recorder.record(.stack([home]))
    recorder.record(.stack([home, .push(.editor(Document(id: 1, text: "draft")))]))
    recorder.record(.stack([home, .push(.editor(Document(id: 2, text: "other")))]))
    try await recorder.flush()
    let failures = reported.withLock { $0 }
    #if DEBUG
    #expect(failures.map(\.error) == [.lossyScreen(screen: "EditorScreen.editor", field: "text")])
    #expect("\(failures[0])".contains("its field 'text' differs"))
    #else
    #expect(failures.isEmpty, "the check is a debug build's")
    #endif
    let recorded = try await store.read { try $0.history(of: sessionID("lossy")) }
    #expect(recorded.count == 3, "the changes are recorded all the same")
  }
}
