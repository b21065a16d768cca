// swift-format-ignore-file
// (The Swift between "doc begin" and "doc end" is the docs' text, byte for byte.)
import Foundation
import NavCore
import NavPersistence
import NavReport
import NavTestSupport
import NavUpload
import Testing

/// The guide "Restoring sessions in an app" (docs/guides/restoring-in-an-app.md), block by block
/// in its order, against one store: describe, hold in a model, act, fail, record, restore, work
/// with the value directly, update, fail, erase, take off the device.
@MainActor @Suite struct AppGuideSnippetTests {
  enum Effect { case setNavigation(Any) }

  @Test func theGuideFromDescribingScreensToTakingASessionOffTheDevice() async throws {
    let folder = try TemporaryFolder()
    let storePath = folder.path("app.sqlite")
    let ticketFolder = folder.url
    let logged = LineLog()
    func log(_ line: String) { logged.append(line) }

    // doc begin
    enum Screen: Codable, Hashable, Sendable {
      case mainTabs, feed, settings
      case numbersList, numberDetail(number: Int)
      case onboarding(step: Int)
    }
    // doc end

    // doc begin
    let initialNavigation: Coordinator<Screen> = .stack([
      .root(.mainTabs, child: .tabs([
        .stack([.root(.feed, withNavigation: true)]),
        .stack([.root(.settings, withNavigation: true)]),
      ], selected: 0)),
    ])
    // doc end
    #expect(initialNavigation.structureError() == nil)

    do {
      // doc begin
      let model = NavigationModel(initialNavigation)
      let tabs = model.stack.tabs(hostedBy: 0)        // the tabs the root screen hosts
      let feed = tabs.stack(0)                         // the feed tab's stack
      feed.push(.numbersList)
      feed.push(.numberDetail(number: 3))
      tabs.select(1)
      model.stack.presentSheet(.onboarding(step: 1), withNavigation: true)
      model.stack.push(.onboarding(step: 2))           // lands in the sheet's navigation
      // doc end
      #expect(feed.routes.map(\.screen) == [.feed, .numbersList, .numberDetail(number: 3)])
      #expect(tabs.selected == 1 && tabs.path == [.route(0)])
      #expect(model.state.routes?.suffix(2) == [.sheet(.onboarding(step: 1), withNavigation: true), .push(.onboarding(step: 2))])
      #expect(model.state.visibleScreen?.path == "/mainTabs/onboarding/onboarding")
      #expect(model.shown == model.state && model.lastFailure == nil)

      // doc begin
      enum Action: Codable {
        case appLaunched, numbersTapped, signOutTapped, signedIn
        case notificationOpened(number: Int)
      }

      model.perform(Action.notificationOpened(number: 9)) {
        model.stack.dismissAll()                       // close whatever is presented,
        tabs.select(0)                                 // go to the feed,
        feed.push(.numberDetail(number: 9))            // and show the number
      }
      // doc end
      #expect(model.state.routes?.count == 1 && tabs.selected == 0)
      #expect(feed.routes.last?.screen == .numberDetail(number: 9))
      #expect(try JSONValue(encoding: Action.notificationOpened(number: 9)) == ["notificationOpened": ["number": 9]])

      let before = model.state
      // doc begin
      do {
        try feed.change { routes in
          try routes.goBackToRoot()
          try routes.push(.numbersList)
        }
      } catch let error as NavigationError {
        log("not possible: \(error.reason)")
      }
      // doc end
      #expect(feed.routes.map(\.screen) == [.feed, .numbersList])
      try? feed.change { try $0.pop(5) }
      #expect(feed.routes.map(\.screen) == [.feed, .numbersList] && model.state != before)
      #expect(model.lastFailure == nil, "a thrown failure is the caller's, not reported")
    }

    do {
      enum Action: Codable {
        case appLaunched, numbersTapped
      }
      // doc begin
      let store = try SessionStore(path: storePath)
      let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-1"))
      let app = NavigationModel(initialNavigation, recorder: recorder, cause: Action.appLaunched)
      app.perform(Action.numbersTapped) {
        app.stack.tabs(hostedBy: 0).stack(0).push(.numbersList)
      }
      // The scene moves to the background:
      app.appLifecycle(.background)
      try await recorder.flush()
      // ... and comes back:
      app.appLifecycle(.foreground)
      // doc end
      let feed = app.stack.tabs(hostedBy: 0).stack(0)
      feed.push(.numberDetail(number: 3))
      feed.push(.numberDetail(number: 4))
      feed.shownRoutes.removeLast()  // a back swipe
      try await recorder.flush()
      let history = try await store.read { try $0.history(of: recorder.session) }
      #expect(
        history.map(\.operation.name) == ["start", "push", "background", "foreground", "push", "push", "pop"])
      #expect(history.map(\.origin) == [.app, .app, .app, .app, .app, .app, .user])
      #expect(history.map(\.cause) == [["appLaunched": [:]], ["numbersTapped": [:]], nil, nil, nil, nil, nil])
    }

    do {
      enum Action: Codable {
        case signOutTapped, signedIn
      }
      let store = try SessionStore(path: folder.path("sign-out.sqlite"))
      let first = NavigationRecorder<Screen>(store: store, session: try SessionID("signed-in"))
      let model = NavigationModel(initialNavigation, recorder: first, failureHandling: .report)
      model.stack.presentSheet(.onboarding(step: 1))
      // doc begin
      model.perform(Action.signOutTapped) {                // the end keeps the action as its cause
        model.stack.dismissAll()
        model.appLifecycle(.end(reason: "signedOut"))
      }
      // doc end
      model.stack.tabs(hostedBy: 0).selection = 1  // shown, recorded nowhere
      // doc begin
      let next = NavigationRecorder<Screen>(store: store, session: try SessionID(UUID().uuidString))
      model.startSession(recordingWith: next, cause: Action.signedIn)
      // doc end
      try await first.flush()
      try await next.flush()
      let ended = try await store.read { try $0.history(of: first.session) }
      #expect(ended.map(\.operation.name) == ["start", "presentSheet", "dismiss", "end"])
      #expect(ended.last?.cause == ["signOutTapped": [:]])
      let started = try await store.read { try $0.history(of: next.session) }
      #expect(started.map(\.operation.name) == ["start"] && started.first?.cause == ["signedIn": [:]])
      #expect(try await store.read { try $0.restore(next.session, as: Screen.self) }.state == model.state)
    }

    do {
      let store = try SessionStore(path: folder.path("context.sqlite"))
      let installID = "install-7f3c"
      // doc begin
      /// What this launch runs on, for the sessions it records.
      func sessionContext(info: [String: Any] = Bundle.main.infoDictionary ?? [:], installID: String) -> SessionContext {
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) {
          String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)  // iPhone15,2 on a device
        }
        let os = ProcessInfo.processInfo.operatingSystemVersion
        #if os(iOS)
          let osName = "iOS"
        #elseif os(macOS)
          let osName = "macOS"
        #else
          let osName = "Linux"
        #endif
        return SessionContext(
          appVersion: info["CFBundleShortVersionString"] as? String,       // 2.3.1
          appBuild: info["CFBundleVersion"] as? String,                     // 412
          osName: osName, osVersion: "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)",
          deviceModel: machine, locale: Locale.current.identifier, timeZone: TimeZone.current.identifier,
          userID: installID)                                                 // opaque: never an email or a name
      }

      let context = sessionContext(installID: installID)
      let recorder = NavigationRecorder<Screen>(
        store: store, session: try SessionID(UUID().uuidString), context: context)
      // doc end
      // A test process has no app bundle; an app's Info.plist gives the two bundle keys.
      let filled = sessionContext(info: ["CFBundleShortVersionString": "2.3.1", "CFBundleVersion": "412"], installID: installID)
      let fields = [
        filled.appVersion, filled.appBuild, filled.osName, filled.osVersion, filled.deviceModel, filled.locale,
        filled.timeZone, filled.userID,
      ]
      #expect(fields.allSatisfy { !($0 ?? "").isEmpty }, "every field is filled: \(filled)")
      #expect(filled.appVersion == "2.3.1" && filled.appBuild == "412" && filled.userID == installID)
      #expect(context.osName == filled.osName && context.deviceModel == filled.deviceModel)
      let filledRecorder = NavigationRecorder<Screen>(store: store, session: try SessionID("with-context"), context: filled)
      filledRecorder.record(initialNavigation, cause: nil, origin: .app)
      try await filledRecorder.flush()
      let kept = try #require(try await store.read { try $0.summary(of: filledRecorder.session) }.context)
      let keptFields = [
        kept.appVersion, kept.appBuild, kept.osName, kept.osVersion, kept.deviceModel, kept.locale, kept.timeZone,
        kept.userID,
      ]
      #expect(keptFields == fields, "kept with the session")
      _ = recorder
    }

    do {
      // doc begin
      let store = try SessionStore(path: storePath)
      let resume = try await store.launch(
        as: Screen.self, policy: LaunchPolicy(maximumAge: .seconds(7 * 86_400)))
      log("launch: \(resume.outcome)")                 // restored, restored only the roots, or started fresh: why
      let recorder = NavigationRecorder<Screen>(
        store: store, session: try SessionID("launch-2"), launch: resume)
      let model = NavigationModel(
        resume.state(or: initialNavigation), launchingFrom: resume.state?.launchState,
        recorder: recorder, host: .navigationStack17)
      store.confirm(resume, once: model)               // noted in the background, once played and stable
      // doc end
      let restoredState = try initialNavigation.applying(.push(.numbersList, at: [.route(0), .tab(0)]))
        .applying(.push(.numberDetail(number: 3), at: [.route(0), .tab(0)]))
      #expect(resume.outcome == .restored && resume.state == restoredState)
      #expect(resume.link == SessionLink(session: try SessionID("launch-1"), seq: 7))
      #expect(model.shown == restoredState && model.state == restoredState)
      #expect(logged.all.last == "launch: restored the latest session")
      try await recorder.flush()
      #expect(try await store.read { try $0.summary(of: recorder.session) }.restoredFrom == resume.link)
      #expect(try await launchesConfirmed(inStoreAt: storePath))
      let again = try await store.launch(as: Screen.self)
      #expect(again.outcome == .restored, "the confirmed initialNavigation settled")
      try store.confirm(again)
      let start = try #require(try await store.read { try $0.history(of: recorder.session, from: 1, to: 1) }.first)
      #expect("\(start.operation)".hasSuffix("; launch: restored"), "\(start.operation)")
    }

    do {
      enum Action: Codable {
        case notificationOpened(number: Int)
      }
      let store = try SessionStore(path: storePath)
      // doc begin
      let opened = try await store.launch(as: Screen.self, opening: "notification")
      let linkRecorder = NavigationRecorder<Screen>(
        store: store, session: try SessionID("launch-4"), launch: opened)
      let linked = NavigationModel(
        opened.state(or: initialNavigation), launchingFrom: opened.state?.launchState,
        recorder: linkRecorder, host: .navigationStack17,
        opening: DeepLink(Action.notificationOpened(number: 9)) { model in
          model.stack.dismissAll()                     // the link's change, as in `perform`
          let tabs = model.stack.tabs(hostedBy: 0)
          tabs.select(0)
          tabs.stack(0).push(.numberDetail(number: 9))
        })
      store.confirm(opened, once: linked)
      // doc end
      #expect(opened.outcome == .restored)
      let feed: CoordinatorPath = [.route(0), .tab(0)]
      // Where the user was, and the linked screen on top of it.
      #expect(
        try linked.state.coordinator(at: feed).routes?.map(\.screen)
          == [.feed, .numbersList, .numberDetail(number: 3), .numberDetail(number: 9)])
      await linked.settled()
      #expect(linked.shown == linked.state)
      try await linkRecorder.flush()
      let history = try await store.read { try $0.history(of: linkRecorder.session) }
      #expect(history.first.map { "\($0.operation)".hasSuffix("; launch: restored") } == true)
      let link = try JSONValue(encoding: Action.notificationOpened(number: 9))
      #expect(history.count > 1 && history.dropFirst().allSatisfy { $0.cause == link })
    }

    do {
      // doc begin
      var navigation = initialNavigation
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
      let before = navigation
      #expect(throws: NavigationError.self) { try navigation.apply(.pop(at: tabs)) }  // tabs have no routes
      #expect(navigation == before, "a refused operation leaves the state as it was")

      // doc begin
      var shownStates: [Coordinator<Screen>] = []
      let player = NavigationPlayer(navigation.launchState, host: .navigationStack17) { shown in
        shownStates.append(shown)      // in an app: set the routes your views bind to
      }
      try player.go(to: navigation)
      await player.settled()
      // doc end
      #expect(shownStates.last == navigation && player.shown == navigation)
      for (from, to) in zip([navigation.launchState] + shownStates, shownStates) {
        #expect(Coordinator.isLegalTransition(from: from, to: to, host: .navigationStack17))
      }

      var sent: [Coordinator<Screen>] = []
      func send(_ effect: Effect) async {
        if case .setNavigation(let state as Coordinator<Screen>) = effect { sent.append(state) }
      }
      // doc begin
      let plan = try Coordinator.plan(from: navigation.launchState, to: navigation, host: .navigationStack17)
      for try await step in plan.timed(clock: ContinuousClock()) {
        await send(.setNavigation(step.state))
      }
      // doc end
      #expect(sent == plan.steps && sent.last == navigation)
    }

    let store = try SessionStore(path: storePath)
    var printed: [String] = []
    func print(_ line: String) { printed.append(line) }
    // doc begin
    enum ScreenV2: Codable, Hashable, Sendable {
      case mainTabs, feed, settings
      case numbersList, numberDetail(number: Int, source: String)   // gained a required field
      case onboarding(step: Int)
    }

    let restored = try await store.read { try $0.restore(try SessionID("launch-1"), as: ScreenV2.self) }
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

    // doc begin
    enum ScreenV3: Codable, Hashable, Sendable {
      case mainTabs, feed, settings
      case numbersList, article(number: Int)   // was numberDetail(number:)
      case onboarding(step: Int)

      enum CodingKeys: String, CodingKey {
        case mainTabs, feed, settings, numbersList, onboarding
        case article = "numberDetail"            // the name stored sessions use
      }
    }

    let renamed = try await store.read { try $0.restore(try SessionID("launch-1"), as: ScreenV3.self) }
    // doc end
    #expect(renamed.dropped.isEmpty)
    #expect(renamed.state == .stack([
      .root(.mainTabs, child: .tabs([
        .stack([.root(.feed, withNavigation: true), .push(.numbersList), .push(.article(number: 3))]),
        .stack([.root(.settings, withNavigation: true)]),
      ], selected: 0)),
    ]))
    enum ScreenV3WithoutKeys: Codable, Hashable, Sendable {
      case mainTabs, feed, settings
      case numbersList, article(number: Int)
      case onboarding(step: Int)
    }
    let unkeyed = try await store.read { try $0.restore(try SessionID("launch-1"), as: ScreenV3WithoutKeys.self) }
    #expect(unkeyed.dropped.first?.error.message.hasPrefix("ScreenV3WithoutKeys has no case named 'numberDetail'") == true)

    let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-3"))
    recorder.record(initialNavigation)
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
    for _ in 0..<500 where !logged.all.contains(where: { $0.hasPrefix("navigation not recorded: ") }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(logged.all.contains { $0.hasPrefix("navigation not recorded: ") })
    failures.cancel()

    do {
      let damagedPath = folder.path("damaged.sqlite")
      try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: damagedPath))
      let newerPath = folder.path("newer.sqlite")
      _ = try SessionStore(path: newerPath)
      try markAsNewerSchema(newerPath)
      let sessionID = try SessionID("after-a-bad-file")
      let storePath = damagedPath
      // doc begin
      /// The store for this launch, or `nil`: the app then runs without recording.
      func openStore(at storePath: String) -> SessionStore? {
        do {
          return try SessionStore(path: storePath)
        } catch .newerSchema {
          log("the navigation store was written by a newer version of the app: not recording")
          return nil
        } catch .damaged, .notADatabase, .notAStore {
          let aside = storePath + ".unreadable-\(Int(Date().timeIntervalSince1970))"
          for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: storePath + suffix) {
            try? FileManager.default.moveItem(atPath: storePath + suffix, toPath: aside + suffix)
          }
          return try? SessionStore(path: storePath)       // a new, empty store
        } catch {
          log("navigation not recorded this launch: \(error)")
          return nil
        }
      }

      let store = openStore(at: storePath)
      let recorder = store.map { NavigationRecorder<Screen>(store: $0, session: sessionID) }
      let model = NavigationModel(initialNavigation, recorder: recorder)
      // doc end

      // The damaged file is moved aside and a new store recorded into.
      let opened = try #require(store)
      try await #require(recorder).flush()
      #expect(try await opened.read { try $0.summary(of: sessionID) }.eventCount == 1)
      #expect(model.state == initialNavigation)
      let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path(""))
        .filter { $0.hasPrefix("damaged.sqlite.unreadable-") }
      #expect(aside.count == 1, "the damaged file is kept aside: \(aside)")
      // A newer schema is left as it is, and nothing is recorded.
      let before = try Data(contentsOf: URL(fileURLWithPath: newerPath))
      #expect(openStore(at: newerPath) == nil)
      #expect(try Data(contentsOf: URL(fileURLWithPath: newerPath)) == before)
      #expect(logged.all.last == "the navigation store was written by a newer version of the app: not recording")
      #expect(openStore(at: folder.path("no-such-folder/app.sqlite")) == nil)
      #expect(logged.all.last?.hasPrefix("navigation not recorded this launch: ") == true)
    }
    recorder.record(try initialNavigation.applying(.push(.numbersList, at: [.route(0), .tab(0)])))
    try await recorder.flush()
    #expect(try await store.read { try $0.state(of: recorder.session) }.seq == 2, "the recorder went on")

    // doc begin
    let ticket = ticketFolder.appendingPathComponent("launch-2.jsonl").path
    let sessions = try await store.read { try $0.bundle(try SessionID("launch-2"), to: ticket) }
    log("bundled \(sessions.count) sessions")      // launch-2, and launch-1 it was restored from
    // doc end
    #expect(sessions.map(\.rawValue) == ["launch-1", "launch-2"])
    #expect(logged.all.last == "bundled 2 sessions")
    // The bundle is both sessions' events, as wire-format lines.
    var expected: [String] = []
    for id in ["launch-1", "launch-2"] {
      expected += try await store.read { try $0.history(of: try SessionID(id)) }.map { try WireFormat.canonicalString($0) }
    }
    let bundled = try String(contentsOfFile: ticket, encoding: .utf8).split(separator: "\n").map(String.init)
    #expect(bundled == expected)

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
    #expect(try await store.read { try $0.sessions() }.map(\.id.rawValue) == ["launch-2", "launch-3", "launch-4"])

    // No collector listens on this port: the flush waits for later and nothing is dropped.
    let collectorURL = try #require(URL(string: "http://127.0.0.1:9"))
    let ingestToken = "nvs_0000000000000000_" + String(repeating: "0", count: 64)
    // doc begin
    let uploader = NavigationUploader(store: store, collector: collectorURL, token: ingestToken)
    await uploader.start()                         // at 20 events waiting, or every 30 s
    // when the scene moves to the background:
    if await uploader.flush(within: .seconds(5)) != .done { log("will upload later") }
    let waiting = try await uploader.pending()     // what the collector has not acknowledged
    // doc end
    await uploader.stop()
    #expect(logged.all.last == "will upload later")
    let recorded = try await store.read { try $0.sessions() }.reduce(0) { $0 + $1.eventCount }
    #expect(waiting.sessions == 3 && waiting.events == recorded)

    let pathMonitor = PathMonitorStandIn()
    // doc begin
    let configuration = UploadConfiguration(
      privacy: { _ in .screenNamesOnly },
      budget: UploadBudget(
        bytesPerDay: 20_000_000, bytesPerDayOnExpensiveNetwork: 2_000_000,
        networkIsExpensive: { pathMonitor.currentPath.isExpensive }))
    let frugal = NavigationUploader(
      store: store, collector: collectorURL, token: ingestToken, configuration: configuration)
    // doc end
    // Nothing listens on the port: attempts that reached no host cost nothing of the day.
    #expect(await frugal.flush().isWillRetry)
    #expect(try await UploadProbe.bytesSentToday(by: store) == 0)
  }
}

/// What the docs read from Network's `NWPathMonitor`, which Linux lacks: here, always cellular.
private final class PathMonitorStandIn: Sendable {
  struct Path { var isExpensive = true }
  var currentPath: Path { Path() }
}

/// Lines written from any task, read back by the test (behind a lock, hence unchecked).
private final class LineLog: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}
