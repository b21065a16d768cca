import Clocks
import Foundation
import NavCore
import NavPersistence
import NavReport
import Testing

/// The README's Swift snippets, compiled and run here, each between `README` markers, with the
/// setup it assumes before it and what its comments claim checked after it. The last test
/// holds the README to this file (and to the example app, for the snippets taken from it), so
/// neither changes without the other.
@Suite struct ReadmeSnippetTests {
  @Test func statesOperationsAndTheConvenienceAPI() throws {
    // README begin
    enum Screen: Codable, Hashable, Sendable {
      case home, numbersList, numberDetail(number: Int), onboarding(step: Int)
    }

    var state: Coordinator<Screen> = .stack([
      .root(.home, withNavigation: true),
      .sheet(.numbersList, withNavigation: true),
      .push(.numberDetail(number: 3)),
    ])
    // README end
    var printed = ""
    func print(_ value: Any) { printed = "\(value)" }
    // README begin
    try state.apply(.dismiss())                                  // in place
    let next = try state.applying(.popToRoot())                  // pure
    try state.apply(.presentCover(.onboarding(step: 1), withNavigation: true))   // a cover over home

    do { try state.apply(.pop()) } catch {
      print(error)  // pop at the top coordinator rejected: route 1 is a cover, not a push; ...
    }
    // README end
    #expect(next == .stack([.root(.home, withNavigation: true)]))
    #expect(printed.hasPrefix("pop at the top coordinator rejected: route 1 is a cover, not a push; "), "\(printed)")
    // README begin
    var routes: [Route<Screen>] = [.root(.home, withNavigation: true)]
    try routes.push(.numbersList)
    try routes.presentSheet(.onboarding(step: 1), withNavigation: true)
    try routes.goBackTo(.numbersList)        // -> true: the topmost match
    try routes.popToRoot()
    let canPush = routes.canPush()           // true
    // README end
    #expect(routes == [.root(.home, withNavigation: true)] && canPush)
  }

  enum AppScreen: Codable, Hashable, Sendable {
    case mainTabs, feed, search, post, settings
  }

  @Test func diffNamesTheOperations() throws {
    let before: Coordinator<AppScreen> = .stack([
      .root(.mainTabs, withNavigation: false, child: .tabs([.stack([.root(.feed, withNavigation: true)]), .stack([.root(.search, withNavigation: true)])], selected: 0)),
      .sheet(.settings, withNavigation: false),
    ])
    let after: Coordinator<AppScreen> = .stack([
      .root(.mainTabs, withNavigation: false, child: .tabs([.stack([.root(.feed, withNavigation: true), .push(.post)]), .stack([.root(.search, withNavigation: true)])], selected: 1)),
    ])
    // README begin
    let operations = try Coordinator.diff(from: before, to: after)
    // [.selectTab(1, at: [.route(0)]), .push(.post, at: [.route(0), .tab(0)]), .dismiss()]
    // README end
    #expect(operations == [.selectTab(1, at: [.route(0)]), .push(.post, at: [.route(0), .tab(0)]), .dismiss()])
  }

  @Test func theWireFormat() throws {
    // README begin
    let op = try WireFormat.decode(AnyOperation.self, from: #"{"op":"goBack","count":2}"#)
    let text = try WireFormat.canonicalString(op)      // {"count":2,"op":"goBack"}
    // README end
    #expect(op == .goBack(count: 2) && text == #"{"count":2,"op":"goBack"}"#)
  }

  @Test func theStore() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-readme-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("navstore.sqlite").path
    let time = Timestamp.now
    enum Screen: Codable, Hashable, Sendable { case home, list, detail }
    let home: AnyCoordinator = .stack([.root(["home": [:]], withNavigation: true), .push(["list": [:]])])
    let id = try SessionID("s-1")
    let events = [AnyEvent(session: try SessionID("s-2"), at: time, operation: .start(home))]
    try Data().write(to: folder.appendingPathComponent("events.jsonl"))
    guard let file = FileHandle(forReadingAtPath: folder.appendingPathComponent("events.jsonl").path) else {
      Issue.record("no events file")
      return
    }
    // README begin
    let store = try SessionStore(path: path)                       // created and migrated if needed
    try store.append(AnyEvent(session: try SessionID("s-1"), at: time, operation: .start(home)))
    try store.append(AnyEvent(session: id, at: time, origin: .user, operation: .goBack()))
    let batch = try store.append(contentsOf: events)               // one transaction; each event's seq and hash
    let current = try store.state(of: id, at: 2)                   // rehydrate at any seq: .state, .seq
    let results = try store.verify()                               // chain, seqs, snapshots
    let latest = try store.latestSession()                         // the session to restore at launch
    let restored = try store.restore(id, as: Screen.self)          // typed, across app versions
    try store.importJSONLines(from: LineReader(handle: file))      // or LinesInMemory(lines), or your own source

    // From a reducer: record what changed between the state before and after an action.
    let before = current.state
    let after = try before.applying(.push(["detail": [:]]))
    try store.record(session: id, from: before, to: after, at: time, cause: ["numberTapped": 3])
    // README end
    #expect(batch.events.count == 1 && current.seq == 2 && results.allSatisfy(\.isIntact))
    #expect(latest != nil && restored.seq == 2 && restored.state == .stack([.root(.home, withNavigation: true)]))
    #expect(try store.state(of: id).state == after)
  }

  @Test func aReportPageInAnApp() throws {
    let store = try SessionStore(path: ":memory:")
    let session = try SessionID("report<&>")
    try store.append(AnyEvent(session: session, at: Timestamp.now, operation: .start(.stack([.root(["home<b>": [:]])]))))
    // README begin
    func reportPage(of session: SessionID, in store: SessionStore) throws(StoreError) -> String {
      ReportPage.html(try SessionReport.load(session, from: store))  // a String of HTML, to share or save
    }
    // README end
    let page = try reportPage(of: session, in: store)
    #expect(page.hasPrefix("<!doctype html>") && page.contains("report&lt;&amp;&gt;") && page.contains("home&lt;b&gt;"))
    #expect(!page.contains("home<b>"))
  }

  enum Action { case updateRoutes(AnyCoordinator) }

  @Test func aTimedPlanFromAReducer() async throws {
    let target: AnyCoordinator = .stack([.root("home", withNavigation: true), .sheet("list", withNavigation: true), .push("detail")])
    let plan = try AnyCoordinator.plan(from: target.launchState, to: target)
    let clock = ImmediateClock()
    var sent: [AnyCoordinator] = []
    func send(_ action: Action) async {
      if case .updateRoutes(let state) = action { sent.append(state) }
    }
    // README begin
    for try await step in plan.timed(clock: clock) {
      await send(.updateRoutes(step.state))   // in a TCA effect, as routeWithDelaysIfUnsupported does
    }
    // README end
    #expect(sent == plan.steps)
  }

  /// Every Swift block of the README is here, or in the example app (which CI builds and runs),
  /// line for line (indentation, blank lines and imports aside).
  @Test func theReadmesSwiftIsThisFilesOrTheExampleApps() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let here = Self.normalized(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8))
    var example: [String] = []
    let sources = root.appendingPathComponent("Examples/RestoringApp/Sources")
    for case let file as URL in FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) ?? .init()
    where file.pathExtension == "swift" {
      example += Self.normalized(try String(contentsOf: file, encoding: .utf8))
    }
    let blocks = Self.swiftBlocks(in: readme)
    #expect(blocks.count >= 11)
    for block in blocks {
      // An excerpt marks what it leaves out with a `// ...` line; each part between must be
      // there whole.
      let parts = Self.normalized(block).split { $0.hasPrefix("// ...") }.map(Array.init)
      let compiled = parts.allSatisfy { Self.contains(here, $0) } || parts.allSatisfy { Self.contains(example, $0) }
      #expect(compiled, "not compiled anywhere:\n\(block)")
    }
  }

  static func swiftBlocks(in markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current?.joined(separator: "\n") ?? "")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The lines, trimmed, with runs of spaces made one; blank lines, imports and the markers
  /// dropped.
  static func normalized(_ text: String) -> [String] {
    text.split(separator: "\n").map { line in
      line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
    .filter { !$0.isEmpty && !$0.hasPrefix("import ") && $0 != "// README begin" && $0 != "// README end" }
  }

  static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    return (0...(haystack.count - needle.count)).contains { start in Array(haystack[start..<start + needle.count]) == needle }
  }
}

/// Issue 18's API gaps: a typed event appends as it is, and states print as trees.
@Suite struct TypedAPITests {
  enum Screen: Codable, Hashable, Sendable { case home, numbersList, numberDetail(number: Int) }

  @Test func aTypedEventAppendsAndReadsBack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-typed-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try SessionStore(path: folder.appendingPathComponent("t.sqlite").path)
    let id = try SessionID("typed")
    let start = NavigationEvent<Screen>(
      session: id, at: Timestamp.now, operation: .start(.stack([.root(.home, withNavigation: true)])))
    try store.append(start)
    try store.append(NavigationEvent<Screen>(session: id, at: Timestamp.now, operation: .presentSheet(.numberDetail(number: 3))))
    let restored = try store.restore(id, as: Screen.self)
    #expect(restored.state == .stack([.root(.home, withNavigation: true), .sheet(.numberDetail(number: 3))]))
  }

  @Test func aStatePrintsAsTheTreeTheCLIShows() {
    let state: Coordinator<Screen> = .stack([
      .root(.home, withNavigation: true), .sheet(.numbersList, withNavigation: true), .push(.numberDetail(number: 3)),
    ])
    #expect("\(state)" == """
      stack
        [0] root, navigation   home
        [1] sheet, navigation  numbersList
        [2] push               numberDetail(number: 3)
      """)
    #expect("\(Route<Screen>.sheet(.numbersList, withNavigation: true))" == "sheet, navigation  numbersList")
  }
}
