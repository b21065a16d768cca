// swift-format-ignore-file
// (The Swift between "doc begin" and "doc end" is the docs' text, byte for byte.)
import Foundation
import NavCore
import NavPersistence
import NavReport
import NavTestSupport
import Testing

/// The guide "Restoring sessions in an app" (docs/guides/restoring-in-an-app.md), block by block
/// in its order, against one store: describe, change, record, restore, play, update, fail,
/// erase, export.
@MainActor @Suite struct AppGuideSnippetTests {
  enum Action { case setNavigation(Any) }

  @Test func theGuideFromDescribingScreensToExportingASession() async throws {
    let folder = try TemporaryFolder()
    let storePath = folder.path("app.sqlite")
    let ticketFolder = folder.url

    // doc begin
    enum Screen: Codable, Hashable, Sendable {
      case mainTabs, feed, settings
      case numbersList, numberDetail(number: Int)
      case onboarding(step: Int)
    }
    // doc end

    // doc begin
    let launch: Coordinator<Screen> = .stack([
      .root(.mainTabs, child: .tabs([
        .stack([.root(.feed, withNavigation: true)]),
        .stack([.root(.settings, withNavigation: true)]),
      ], selected: 0)),
    ])
    // doc end
    #expect(launch.structureError() == nil)

    do {
      // doc begin
      var navigation = launch
      let tabs: CoordinatorPath = [.route(0)]          // the tabs the root screen hosts
      let feed = tabs.appending(.tab(0))               // the feed tab's stack
      try navigation.apply(.push(.numbersList, at: feed))
      try navigation.apply(.push(.numberDetail(number: 3), at: feed))
      try navigation.apply(.selectTab(1, at: tabs))
      try navigation.apply(.presentSheet(.onboarding(step: 1), withNavigation: true))
      try navigation.apply(.push(.onboarding(step: 2)))  // lands in the sheet's navigation
      // doc end
      #expect(try navigation.coordinator(at: feed).routes?.map(\.screen) == [.feed, .numbersList, .numberDetail(number: 3)])
      #expect(navigation.routes?.suffix(2) == [.sheet(.onboarding(step: 1), withNavigation: true), .push(.onboarding(step: 2))])
      #expect(navigation.visibleScreen?.path == "/mainTabs/onboarding/onboarding")
      let before = navigation
      #expect(throws: NavigationError.self) { try navigation.apply(.pop(at: tabs)) }  // tabs have no routes
      #expect(navigation == before, "a refused operation leaves the state as it was")
    }

    // doc begin
    @MainActor final class NavigationModel {
      private(set) var navigation: Coordinator<Screen>
      let recorder: NavigationRecorder<Screen>

      init(navigation: Coordinator<Screen>, recorder: NavigationRecorder<Screen>) {
        self.navigation = navigation
        self.recorder = recorder
        recorder.record(navigation, cause: ["appLaunched": [:]])
      }

      /// The app's own navigation, for an action the user took in the app.
      func perform(_ operation: NavigationOperation<Screen>, because cause: JSONValue) throws {
        try navigation.apply(operation)
        recorder.record(navigation, cause: cause)
      }

      /// A change the host already shows: a back swipe or a swipe-dismissal.
      func hostChanged(to state: Coordinator<Screen>) {
        navigation = state
        recorder.record(navigation, origin: .user)
      }
    }
    // doc end

    do {
      // doc begin
      let store = try SessionStore(path: storePath)
      let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-1"))
      let model = NavigationModel(navigation: launch, recorder: recorder)
      try model.perform(.push(.numbersList, at: [.route(0), .tab(0)]), because: ["numbersTapped": [:]])
      // The scene moves to the background:
      try await recorder.flush()
      // doc end
      try model.perform(.push(.numberDetail(number: 3), at: [.route(0), .tab(0)]), because: ["numberTapped": 3])
      try model.perform(.push(.numberDetail(number: 4), at: [.route(0), .tab(0)]), because: ["numberTapped": 4])
      model.hostChanged(to: try model.navigation.applying(.pop(at: [.route(0), .tab(0)])))  // a back swipe
      try await recorder.flush()
      let history = try await store.history(of: recorder.session)
      #expect(history.map(\.operation.name) == ["start", "push", "push", "push", "pop"])
      #expect(history.map(\.origin) == [.app, .app, .app, .app, .user])
      #expect(history.map(\.cause) == [["appLaunched": [:]], ["numbersTapped": [:]], ["numberTapped": 3], ["numberTapped": 4], nil])
    }

    do {
      // doc begin
      let store = try SessionStore(path: storePath)
      var navigation = launch
      var continued: SessionLink?
      if let latest = try await store.latestSession() {
        do {
          let restored = try await store.restore(latest.id, as: Screen.self)
          navigation = restored.state
          continued = restored.link
        } catch {
          guard case .cannotRestore = error else { throw error }
          // Not even its root decodes any more (see "After an app update"): start from `launch`.
        }
      }
      let recorder = NavigationRecorder<Screen>(
        store: store, session: try SessionID("launch-2"), restoredFrom: continued)
      let model = NavigationModel(navigation: navigation, recorder: recorder)
      // doc end
      let restoredState = try launch.applying(.push(.numbersList, at: [.route(0), .tab(0)]))
        .applying(.push(.numberDetail(number: 3), at: [.route(0), .tab(0)]))
      let firstLaunch = try SessionID("launch-1")
      #expect(navigation == restoredState && continued == SessionLink(session: firstLaunch, seq: 5))

      // doc begin
      var shownRoutes: [Coordinator<Screen>] = []
      let player = NavigationPlayer(navigation.launchState, host: .navigationStack17) { shown in
        shownRoutes.append(shown)      // in an app: set the routes your views bind to
      }
      try player.go(to: model.navigation)
      await player.settled()
      // doc end
      #expect(shownRoutes.last == restoredState && player.shown == restoredState)
      for (from, to) in zip([navigation.launchState] + shownRoutes, shownRoutes) {
        #expect(Coordinator.isLegalTransition(from: from, to: to, host: .navigationStack17))
      }

      var sent: [Coordinator<Screen>] = []
      func send(_ action: Action) async {
        if case .setNavigation(let state as Coordinator<Screen>) = action { sent.append(state) }
      }
      // doc begin
      let plan = try Coordinator.plan(from: navigation.launchState, to: navigation, host: .navigationStack17)
      for try await step in plan.timed(clock: ContinuousClock()) {
        await send(.setNavigation(step.state))
      }
      // doc end
      #expect(sent == plan.steps && sent.last == restoredState)
      try await recorder.flush()
      #expect(try await store.history(of: recorder.session).first?.operation.restoredFrom == continued)

      var printed: [String] = []
      func print(_ line: String) { printed.append(line) }
      // doc begin
      enum ScreenV2: Codable, Hashable, Sendable {
        case mainTabs, feed, settings
        case numbersList, numberDetail(number: Int, source: String)   // gained a required field
        case onboarding(step: Int)
      }

      let restored = try await store.restore(try SessionID("launch-1"), as: ScreenV2.self)
      for cut in restored.dropped {
        print("dropped \(cut.removedRouteCount) route(s) from \(cut.screenName): \(cut.error.message)")
      }
      // doc end
      #expect(printed == [#"dropped 1 route(s) from numberDetail: missing field "source""#])
      #expect(restored.state == .stack([
        .root(.mainTabs, child: .tabs([
          .stack([.root(.feed, withNavigation: true), .push(.numbersList)]),
          .stack([.root(.settings, withNavigation: true)]),
        ], selected: 0)),
      ]))

      let logged = LineLog()
      func log(_ line: String) { logged.append(line) }
      // doc begin
      let failures = Task {
        for await failure in recorder.failures {
          log("navigation not recorded: \(failure)")   // failure.error is the StoreError
        }
      }
      // doc end
      // A change diff cannot express: the top coordinator turning into tabs.
      recorder.record(.tabs([.stack([.root(.feed, withNavigation: true)])], selected: 0))
      await #expect(throws: RecordingFailure.self) { try await recorder.flush() }
      for _ in 0..<500 where logged.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
      #expect(logged.all.count == 1 && logged.all.first?.hasPrefix("navigation not recorded: ") == true)
      failures.cancel()
      model.hostChanged(to: try model.navigation.applying(.pop(at: [.route(0), .tab(0)])))
      try await recorder.flush()
      #expect(try await store.restore(recorder.session, as: Screen.self).state == model.navigation, "the recorder went on")

      // doc begin
      let file = ticketFolder.appendingPathComponent("launch-2.jsonl")
      try Data().write(to: file)
      let output = try FileHandle(forWritingTo: file)
      try await store.exportEncoded(.events, format: .jsonl, filter: ExportFilter(session: try SessionID("launch-2"))) { chunk in
        try output.write(contentsOf: chunk)           // streamed: memory stays flat, however long the session
      }
      try output.close()
      // doc end
      let copy = try SessionStore(path: folder.path("ticket.sqlite"))
      let input = try #require(FileHandle(forReadingAtPath: file.path))
      try await copy.importJSONLines(from: LineReader(handle: input))
      #expect(try await copy.history(of: recorder.session) == (try await store.history(of: recorder.session)))
      #expect(try await copy.verify().allSatisfy(\.isIntact))

      // doc begin
      let page = ReportPage.html(try SessionReport.load(try SessionID("launch-2"), from: store))
      // doc end
      #expect(page.hasPrefix("<!doctype html>") && page.contains("launch-2"))

      // doc begin
      let erased = try store.forget([try SessionID("launch-1")], at: Timestamp.now)
      let expired = try store.prune(before: Timestamp(Date().addingTimeInterval(-90 * 86_400)), at: Timestamp.now)
      let space = try store.reclaimSpace()       // the file shrinks: SQLite's VACUUM
      // doc end
      #expect(erased.map(\.session.rawValue) == ["launch-1"] && expired.isEmpty)
      #expect(space.after <= space.before)
      #expect(try await store.sessions().map(\.id.rawValue) == ["launch-2"])
    }
  }
}

/// Lines written from any task, read back by the test (behind a lock, hence unchecked).
private final class LineLog: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}
