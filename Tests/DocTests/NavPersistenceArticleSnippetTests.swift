// swift-format-ignore-file
// (The Swift between "doc begin" and "doc end" is the docs' text, byte for byte.)
import Foundation
import NavCore
import NavPersistence
import NavReport
import NavTestSupport
import Testing

/// The Swift of NavPersistence's and NavReport's DocC catalogs, article by article.
@MainActor @Suite struct NavPersistenceArticleSnippetTests {
  enum Screen: Codable, Hashable, Sendable {
    case home, numbersList, numberDetail(number: Int)
  }

  /// NavPersistence's landing page.
  @Test func theOverview() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("navstore.sqlite")
    let time = Timestamp.now
    let home: AnyCoordinator = .stack([.root(["home": [:]], withNavigation: true), .push(["numbersList": [:]])])
    // doc begin
    let store = try SessionStore(path: path)                       // created and migrated if needed
    let id = try SessionID("s-1")
    try store.append(AnyEvent(session: id, at: time, operation: .start(home)))
    try store.append(AnyEvent(session: id, at: time, origin: .user, operation: .goBack()))
    let current = try store.state(of: id, at: 2)                   // rehydrate at any seq
    let results = try store.verify()                               // chain, seqs, snapshots
    let restored = try store.restore(id, as: Screen.self)          // typed, across app versions
    // doc end
    #expect(current.seq == 2 && results.allSatisfy(\.isIntact))
    #expect(restored.seq == 2 && restored.state == .stack([.root(.home, withNavigation: true)]))
  }

  /// "Recording".
  @Test func recording() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("r.sqlite"))
    var navigation: Coordinator<Screen> = .stack([.root(.home, withNavigation: true), .sheet(.numbersList, withNavigation: true)])
    // doc begin
    let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-1"))
    recorder.record(navigation)                                        // the session's start
    try navigation.apply(.push(.numberDetail(number: 3)))
    recorder.record(navigation, cause: ["numberTapped": 3])            // the app's own change
    let afterBackSwipe = try navigation.applying(.pop())
    recorder.record(afterBackSwipe, origin: .user)                     // a gesture the host reported
    recorder.record(.background)                                       // the app moves to the background
    try await recorder.flush()
    // doc end
    let history = try await store.read { try $0.history(of: recorder.session) }
    #expect(history.map(\.operation.name) == ["start", "push", "pop", "background"])
    #expect(history.map(\.origin) == [.app, .app, .user, .app])
    #expect(history.map(\.cause) == [nil, ["numberTapped": 3], nil, nil])
  }

  /// "Recording", from a reducer.
  @Test func recordingFromAReducer() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let id = try SessionID("reducer")
    try store.record(session: id, from: nil, to: AnyCoordinator.stack([.root(["home": [:]], withNavigation: true)]), at: Timestamp.now)
    // doc begin
    let before = try store.state(of: id).state
    let after = try before.applying(.push(["detail": [:]]))
    try store.record(session: id, from: before, to: after, at: Timestamp.now, cause: ["numberTapped": 3])
    // doc end
    #expect(try store.state(of: id).state == after)
    #expect(throws: StoreError.self) {
      try store.record(session: id, from: before, to: after, at: Timestamp.now)  // `before` is no longer current
    }
  }

  /// "Recording", from a reducer, from async code: the state read and the record in one write.
  @Test func recordingFromAReducerInOneWrite() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let id = try SessionID("reducer")
    let home = AnyCoordinator.stack([.root(["home": [:]], withNavigation: true)])
    try await store.write { try $0.record(session: id, from: nil, to: home, at: Timestamp.now) }
    // doc begin
    try await store.write { writer in
      let before = try writer.reader.state(of: id).state
      let after = try before.applying(.push(["detail": [:]]))
      try writer.record(session: id, from: before, to: after, at: Timestamp.now, cause: ["numberTapped": 3])
    }
    // doc end
    let history = try await store.read { try $0.history(of: id) }
    #expect(history.map(\.operation.name) == ["start", "push"] && history.last?.cause == ["numberTapped": 3])
  }

  /// "Restoring a session".
  @Test func restoringASession() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("r.sqlite"))
    var started: NavigationRecorder<Screen>?
    func launch() async throws {
      // doc begin
      guard let latest = try await store.read({ try $0.latestSession() }) else { return }   // a fresh start
      let restored = try await store.read { try $0.restore(latest.id, as: Screen.self) }
      let recorder = NavigationRecorder<Screen>(
        store: store, session: try SessionID("launch-2"), restoredFrom: restored.link)
      // doc end
      recorder.record(restored.state)
      started = recorder
    }
    try await launch()
    #expect(started == nil)
    let state: Coordinator<Screen> = .stack([.root(.home, withNavigation: true), .push(.numberDetail(number: 9))])
    try await store.write { try $0.record(session: try SessionID("launch-1"), from: nil, to: state, at: Timestamp.now) }
    try await launch()
    let recorder = try #require(started)
    try await recorder.flush()
    #expect(try await store.read { try $0.summary(of: recorder.session) }.restoredFrom == SessionLink(session: try SessionID("launch-1"), seq: 1))
    #expect(try await store.read { try $0.restore(recorder.session, as: Screen.self) }.state == state)
  }

  /// "Restoring a session": what to restore.
  @Test func whatToRestore() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("r.sqlite"))
    let home: Coordinator<Screen> = .stack([.root(.home, withNavigation: true)])
    var logged: [String] = []
    func log(_ line: String) { logged.append(line) }
    func launchOnce() async throws -> NavigationModel<Screen> {
      // doc begin
      let launch = try await store.launch(as: Screen.self, policy: LaunchPolicy(maximumAge: .seconds(86_400)))
      if case .startedFresh(let reason) = launch.outcome { log("fresh start: \(reason)") }
      let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-3"), launch: launch)
      let model = NavigationModel(
        launch.state(or: home), launchingFrom: launch.state?.launchState, recorder: recorder)
      store.confirm(launch, once: model)                // noted in the background once played and stable
      // doc end
      try await recorder.flush()
      return model
    }
    let fresh = try await launchOnce()
    #expect(fresh.state == home && logged == ["fresh start: no session to restore"])
    let deep: Coordinator<Screen> = .stack([.root(.home, withNavigation: true), .push(.numberDetail(number: 9))])
    try await store.write { try $0.record(session: try SessionID("launch-4"), from: nil, to: deep, at: Timestamp.now) }
    let restored = try await launchOnce()
    #expect(restored.shown == deep && logged.count == 1)
    #expect(try await store.read { try $0.summary(of: try SessionID("launch-3")) }.eventCount == 2, "the same id: the session goes on")
  }

  /// "Forgetting sessions".
  @Test func forgetting() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("c.sqlite"))
    let home: AnyCoordinator = .stack([.root(["home": [:]], withNavigation: true)])
    // 2026-11-10, -12 and -14 at 10:00 UTC; the cutoff 2026-11-13 at midnight.
    for (name, at) in [("s-1", 1_794_304_800_000), ("s-2", 1_794_477_600_000), ("s-3", 1_794_650_400_000)] {
      try store.append(AnyEvent(session: try SessionID(name), at: Timestamp(millisecondsSince1970: Int64(at)), operation: .start(home)))
    }
    let cutoff = Timestamp(millisecondsSince1970: 1_794_528_000_000)
    // doc begin
    let tombstones = try store.forget([try SessionID("s-2")], at: Timestamp.now)
    let old = try store.sessions(lastBefore: cutoff)               // what prune would forget
    let pruned = try store.prune(before: cutoff, at: Timestamp.now)
    // doc end
    #expect(tombstones.map(\.session.rawValue) == ["s-2"])
    #expect(old.map(\.rawValue) == ["s-1"] && pruned.map(\.session.rawValue) == ["s-1"])
    #expect(try store.sessions().map(\.id.rawValue) == ["s-3"])
  }

  /// "Store guarantees": the two doors for async code.
  @Test func theDoors() async throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("d.sqlite"))
    let event = AnyEvent(session: try SessionID("s-1"), at: Timestamp.now, operation: .start(.stack([.root(["home": [:]])])))
    // doc begin
    let latest = try await store.read { try $0.latestSession() }
    try await store.write { try $0.append(event) }
    // doc end
    #expect(latest == nil)
    #expect(try await store.read { try $0.latestSession() }?.id.rawValue == "s-1")
  }

  /// NavReport's landing page.
  @Test func aReportPage() throws {
    let store = try SessionStore(path: ":memory:")
    let session = try SessionID("report<&>")
    try store.append(AnyEvent(session: session, at: Timestamp.now, operation: .start(.stack([.root(["home<b>": [:]])]))))
    // doc begin
    func reportPage(of session: SessionID, in store: SessionStore) throws(StoreError) -> String {
      ReportPage.html(try SessionReport.load(session, from: store))  // a String of HTML, to share or save
    }
    // doc end
    let page = try reportPage(of: session, in: store)
    #expect(page.hasPrefix("<!doctype html>") && page.contains("report&lt;&amp;&gt;") && page.contains("home&lt;b&gt;"))
    #expect(!page.contains("home<b>"))
  }
}
