import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// `launch(as:policy:)` restores only what the user wants back: not a stale session, not one
/// the user ended, and less, then nothing, after launches that crashed while restoring.
@Suite struct LaunchPolicyTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  /// The deep state the seeded session ends at: a push and a sheet above the root.
  static let deep: AnyCoordinator = .stack(stack("R+home", "↑list", "◻+detail"))

  /// A store whose one session ends at `deep`, last active at `at(0)`.
  func seededStore(_ name: String = "app.sqlite") throws -> SessionStore {
    let store = try SessionStore(path: folder.path(name))
    try store.append(event("seed", .start(.stack(stack("R+home")))))
    try store.append(event("seed", .push(.string("list"))))
    try store.append(event("seed", .presentSheet(.string("detail"), withNavigation: true)))
    return store
  }

  /// `milliseconds` after the seeded session's last event.
  static func at(_ milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSince1970: 1_795_000_000_000 + milliseconds)
  }

  @Test func theLatestSessionIsRestoredWholeAndConfirmed() throws {
    let store = try seededStore()
    let launch = try store.launch(as: JSONValue.self, now: Self.at(1000))
    #expect(launch.outcome == .restored)
    #expect(launch.state == Self.deep)
    #expect(launch.link == SessionLink(session: sessionID("seed"), seq: 3))
    try store.confirm(launch)
    #expect(try store.launch(as: JSONValue.self, now: Self.at(2000)).outcome == .restored)
  }

  /// `confirm(_:once:)` returns at once, while the restore is still being played, and notes the
  /// launch as settled in the background once it is on screen and stable; a cancelled one notes
  /// nothing, as a crash would.
  @MainActor @Test func theLaunchReturnsBeforeTheRestoreIsPlayedAndIsConfirmedInTheBackground() async throws {
    let store = try seededStore()
    let policy = LaunchPolicy(stableFor: .milliseconds(50))
    let launch = try await store.launch(as: JSONValue.self, policy: policy)
    let model = NavigationModel(
      launch.state(or: Self.deep), launchingFrom: launch.state?.launchState, host: .navigationView,
      delayMilliseconds: 200)
    let confirming = store.confirm(launch, once: model)
    #expect(model.isPlaying && model.shown != Self.deep, "returned before the steps were played")
    #expect(try unconfirmedLaunches(inStoreAt: folder.path("app.sqlite")) == 1)
    try await confirming.value
    #expect(!model.isPlaying && model.shown == Self.deep)
    #expect(try unconfirmedLaunches(inStoreAt: folder.path("app.sqlite")) == 0)

    let next = try await store.launch(as: JSONValue.self, policy: policy)
    let cancelled = store.confirm(next, once: NavigationModel(Self.deep, launchingFrom: Self.deep.launchState))
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(try unconfirmedLaunches(inStoreAt: folder.path("app.sqlite")) == 1)
  }

  @Test func aStaleSessionStartsFreshSayingWhy() throws {
    let store = try seededStore()
    let policy = LaunchPolicy(maximumAge: .seconds(3600))
    #expect(try store.launch(as: JSONValue.self, policy: policy, now: Self.at(3_600_000)).outcome == .restored)
    let stale = try store.launch(as: JSONValue.self, policy: policy, now: Self.at(3_600_001))
    #expect(
      stale.outcome
        == .startedFresh(.tooOld(session: sessionID("seed"), lastActive: Self.at(0), maximumAgeMilliseconds: 3_600_000))
    )
    #expect(stale.state == nil && stale.link == nil)
    #expect("\(stale.outcome)".hasSuffix("longer ago than the 1 hour allowed"), "\(stale.outcome)")
    #expect(stale.state(or: .stack(stack("R+fresh"))) == .stack(stack("R+fresh")))
    // A clock set back makes the session look newer, never stale.
    #expect(try store.launch(as: JSONValue.self, policy: policy, now: Self.at(-86_400_000)).outcome != stale.outcome)
  }

  @Test func aSessionTheUserEndedIsNotRestored() throws {
    let store = try seededStore()
    try store.endSession(sessionID("seed"), reason: "signedOut", at: Self.at(500))
    try store.endSession(sessionID("seed"), reason: "again", at: Self.at(600))  // the first ending stays
    let launch = try store.launch(as: JSONValue.self, now: Self.at(1000))
    #expect(
      launch.outcome == .startedFresh(.endedByUser(session: sessionID("seed"), at: Self.at(500), reason: "signedOut")))
    #expect(throws: StoreError.unknownSession(sessionID("nope"))) {
      try store.endSession(sessionID("nope"), reason: "signedOut")
    }
    // The next session, recorded after the sign-out, is restored as usual.
    try store.append(event("after", .start(.stack(stack("R+welcome"))), offset: 2000))
    #expect(try store.launch(as: JSONValue.self, now: Self.at(3000)).outcome == .restored)
  }

  @Test func unsettledLaunchesRestoreLessThenNothingAndAFreshStartResets() throws {
    let store = try seededStore()
    let first = try store.launch(as: JSONValue.self, now: Self.at(1000))  // never confirmed: it crashed
    #expect(first.outcome == .restored)
    let second = try store.launch(as: JSONValue.self, now: Self.at(2000))
    #expect(second.outcome == .restoredRoots(unsettledLaunches: 1))
    #expect(second.state == Self.deep.launchState && second.link == first.link)
    let third = try store.launch(as: JSONValue.self, now: Self.at(3000))
    #expect(third.outcome == .startedFresh(.unsettledLaunches(2)))
    let fourth = try store.launch(as: JSONValue.self, now: Self.at(4000))
    #expect(fourth.outcome == .restored, "a fresh start cannot crash restoring: the count starts again")
    // Confirming a launch that was followed by others changes nothing for them.
    try store.confirm(first)
    #expect(try store.launch(as: JSONValue.self, now: Self.at(5000)).outcome == .restoredRoots(unsettledLaunches: 1))
  }

  @Test func nothingToRestoreOrNothingThatDecodesStartsFresh() throws {
    let empty = try SessionStore(path: folder.path("empty.sqlite"))
    #expect(try empty.launch(as: JSONValue.self).outcome == .startedFresh(.noSession))
    enum Unrelated: Codable, Hashable, Sendable { case somethingElse }
    let store = try seededStore()
    let launch = try store.launch(as: Unrelated.self, now: Self.at(1000))
    guard case .startedFresh(.undecodable(let session, .nothingRestorable)) = launch.outcome else {
      Issue.record("expected an undecodable fresh start, got \(launch.outcome)")
      return
    }
    #expect(session == sessionID("seed"))
  }

  @Test func forgettingASessionRemovesItsLaunchBookkeeping() throws {
    let store = try seededStore()
    try store.endSession(sessionID("seed"), reason: "signedOut", at: Self.at(500))
    _ = try store.launch(as: JSONValue.self, now: Self.at(1000))
    try store.forget([sessionID("seed")], at: Self.at(2000))
    #expect(try store.launch(as: JSONValue.self, now: Self.at(3000)).outcome == .startedFresh(.noSession))
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  // MARK: What the new session says

  /// The first event of the new session says what its launch did: a whole restore, from which
  /// session, a restore of the roots and why, a fresh start and why.
  @Test func theNewSessionsStartSaysWhatTheLaunchDid() async throws {
    let store = try seededStore()
    func record(_ launch: Launch<JSONValue>, as name: String) async throws -> AnyOperation {
      let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID(name), launch: launch)
      recorder.record(launch.state(or: .stack(stack("R+fresh"))))
      try await recorder.flush()
      return try #require(try await store.read { try $0.history(of: sessionID(name)) }.first).operation
    }
    let whole = try await store.launch(as: JSONValue.self, now: Self.at(1000))
    let first = try await record(whole, as: "whole")
    #expect(first.launch == LaunchRecord(outcome: .restored))
    #expect(first.restoredFrom == SessionLink(session: sessionID("seed"), seq: 3))
    let roots = try await store.launch(as: JSONValue.self, now: Self.at(2000))  // the first never settled
    #expect(
      try await record(roots, as: "roots").launch == LaunchRecord(outcome: .restoredRoots, reason: "unsettledLaunch"))
    try await store.endSession(sessionID("roots"), reason: "signedOut")
    let fresh = try await store.launch(as: JSONValue.self)
    let freshStart = try await record(fresh, as: "fresh")
    #expect(freshStart.launch == LaunchRecord(outcome: .startedFresh, reason: "ended"))
    #expect(freshStart.restoredFrom == nil)
    #expect(freshStart.summary.hasSuffix("; launch: fresh (ended)"), "\(freshStart.summary)")
    #expect(try await store.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  /// A user who opens the app and leaves it before `stableFor` has passed quit on purpose:
  /// the background the recorder writes settles the launch, in the same transaction, and the
  /// next launch restores whole. Without it the launch stays unsettled, as a crash.
  @MainActor @Test func aLaunchThatGoesToTheBackgroundSettlesWithoutWaiting() async throws {
    let store = try seededStore()
    let path = folder.path("app.sqlite")
    let policy = LaunchPolicy(stableFor: .seconds(600))
    for name in ["quit-1", "quit-2"] {
      let launch = try await store.launch(as: JSONValue.self, policy: policy)
      #expect(launch.outcome == .restored, "\(name): \(launch.outcome)")
      let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID(name), launch: launch)
      let model = NavigationModel(
        launch.state(or: Self.deep), launchingFrom: launch.state?.launchState, recorder: recorder,
        host: .navigationStack17, clock: ImmediateTestClock())
      let confirming = store.confirm(launch, once: model)  // would wait ten minutes
      defer { confirming.cancel() }
      try await recorder.flush()
      #expect(try unconfirmedLaunches(inStoreAt: path) == 1)
      model.appLifecycle(.background)
      try await recorder.flush()
      #expect(try unconfirmedLaunches(inStoreAt: path) == 0, "\(name)")
      // The model's host profile is kept in the context, for a replay to plan as the app did.
      #expect(try await store.read { try $0.summary(of: sessionID(name)) }.context?.host == .navigationStack17)
    }
    // Killed in the foreground: unsettled.
    let killed = try await store.launch(as: JSONValue.self, policy: policy)
    let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID("killed"), launch: killed)
    recorder.record(try #require(killed.state))
    try await recorder.flush()
    #expect(try unconfirmedLaunches(inStoreAt: path) == 1)
    #expect(try await store.launch(as: JSONValue.self, policy: policy).outcome == .restoredRoots(unsettledLaunches: 1))
  }

  /// A launch that opens a notification under a policy that lets the link win declines the
  /// restore: the start says so with the app's word, nothing waits to be confirmed, and the
  /// next, normal launch restores the session the link began, whole.
  @Test func aDeclinedRestoreSaysWhyAndIsNeverCountedAsUnsettled() async throws {
    let store = try seededStore()
    let policy = LaunchPolicy(linkedLaunches: .declineRestore)
    let launch = try await store.launch(as: JSONValue.self, policy: policy, opening: "notification", now: Self.at(1000))
    #expect(launch.outcome == .declined(reason: "notification"))
    #expect(launch.state == nil && launch.link == nil)
    #expect("\(launch.outcome)" == "declined the restore: notification")
    #expect(try unconfirmedLaunches(inStoreAt: folder.path("app.sqlite")) == 0)
    let recorder = NavigationRecorder<JSONValue>(store: store, session: sessionID("linked"), launch: launch)
    recorder.record(.stack(stack("R+promo")), cause: .string("notificationOpened"))
    try await recorder.flush()
    let start = try #require(try await store.read { try $0.history(of: sessionID("linked")) }.first)
    #expect(start.operation.launch == LaunchRecord(outcome: .declined, reason: "notification"))
    #expect(start.operation.restoredFrom == nil && start.cause == .string("notificationOpened"))
    let next = try await store.launch(as: JSONValue.self, policy: policy, now: Self.at(2000))
    #expect(next.outcome == .restored && next.link?.session == sessionID("linked"))
    try store.confirm(next)

    // The default policy restores beneath the link; the app may still decline afterwards.
    let beneath = try await store.launch(as: JSONValue.self, opening: "notification", now: Self.at(3000))
    #expect(beneath.outcome == .restored)
    let declined = try store.decline(beneath, reason: "promo")
    #expect(declined.outcome == .declined(reason: "promo") && declined.state == nil && declined.link == nil)
    #expect(try unconfirmedLaunches(inStoreAt: folder.path("app.sqlite")) == 0)
  }

  // MARK: Real crashes

  @Test func aLaunchKilledWhileRestoringMakesTheNextOneSaferAndTwoMakeAFreshStart() throws {
    let path = folder.path("drill.sqlite")
    _ = try seededStore("drill.sqlite")
    let first = try LaunchDrill.run(store: path, session: "launch-1", settle: false)
    #expect(first.outcome == "restored the latest session")
    let second = try LaunchDrill.run(store: path, session: "launch-2", settle: false)
    #expect(
      second.outcome == "restored only the roots of the latest session: the last launch restored and did not settle")
    #expect(second.state == (try WireFormat.canonicalString(Self.deep.launchState)))
    let third = try LaunchDrill.run(store: path, session: "launch-3", settle: true)
    #expect(third.outcome == "started fresh: 2 launches in a row restored and did not settle")
    #expect(third.state == "fresh")
    let fourth = try LaunchDrill.run(store: path, session: "launch-4", settle: true)
    #expect(fourth.outcome == "restored the latest session")
    let fifth = try LaunchDrill.run(store: path, session: "launch-5", settle: true)
    #expect(fifth.outcome == "restored the latest session", "a settled launch counts as one")
    let store = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    #expect(try store.verify().allSatisfy(\.isIntact))
  }

  /// A user who opens the app, glances and swipes it away, twice, one second in (before the
  /// default three seconds of `stableFor`), is taken back where they were the third time: the
  /// app went to the background first, so neither launch counts as a crash.
  @Test func twoQuickNormalQuitsRestoreFully() throws {
    let path = folder.path("quits.sqlite")
    _ = try seededStore("quits.sqlite")
    let quickQuit = ["--quit-after-ms", "1000", "--stable-ms", "3000"]
    for session in ["quit-1", "quit-2"] {
      let launch = try LaunchDrill.run(store: path, session: session, settle: false, options: quickQuit)
      #expect(launch.outcome == "restored the latest session", "\(session)")
      #expect(launch.state == (try WireFormat.canonicalString(Self.deep)))
    }
    let third = try LaunchDrill.run(store: path, session: "launch-3", settle: true)
    #expect(third.outcome == "restored the latest session")
    #expect(third.state == (try WireFormat.canonicalString(Self.deep)))
  }

  /// A launch opened by a notification restores beneath it: the new session starts at the
  /// restore and its next event is the link's, caused by it; the next launch comes back to the
  /// linked screen. One that declines says so in its start, and the launch after it, normal,
  /// restores whole: a declined restore is not a crash.
  @Test func aNotificationLaunchRestoresBeneathTheLinkOrDeclinesSayingWhy() throws {
    let path = folder.path("links.sqlite")
    _ = try seededStore("links.sqlite")
    let beneath = try LaunchDrill.run(
      store: path, session: "beneath", settle: false, options: ["--open", "notification", "--quit-after-ms", "700"])
    #expect(beneath.outcome == "restored the latest session")
    var store = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    let history = try store.history(of: sessionID("beneath"))
    #expect(history.first?.operation.launch == LaunchRecord(outcome: .restored))
    #expect(history.first?.operation.restoredFrom == SessionLink(session: sessionID("seed"), seq: 3))
    let linkEvents = history.dropFirst().filter { $0.operation.name != "background" }
    #expect(!linkEvents.isEmpty && linkEvents.allSatisfy { $0.cause == .string("notification") })
    #expect(history.last?.operation.name == "background")
    let linked: AnyCoordinator = .stack(stack("R+home", "↑list", "↑linked"))

    let declined = try LaunchDrill.run(
      store: path, session: "declined", settle: false, options: ["--open", "notification", "--decline"])
    #expect(declined.outcome == "declined the restore: notification")
    #expect(declined.state == "fresh")
    store = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    let start = try #require(try store.history(of: sessionID("declined")).first)
    #expect(start.operation.launch == LaunchRecord(outcome: .declined, reason: "notification"))
    #expect(start.operation.summary.hasSuffix("; launch: declined (notification)"))
    #expect(try store.state(of: sessionID("beneath")).state == linked)

    let next = try LaunchDrill.run(store: path, session: "next", settle: true)
    #expect(next.outcome == "restored the latest session", "killed after declining, and still not a crash")
    #expect(next.state == (try WireFormat.canonicalString(AnyCoordinator.stack(stack("R+home", "↑linked")))))
  }

  /// An update whose screen type lost a case restores what still decodes, and the new
  /// session's start lists what it dropped, for support to read in its history.
  @Test func anUpdateThatDropsRoutesSaysSoInTheNewSession() throws {
    let path = folder.path("update.sqlite")
    _ = try seededStore("update.sqlite")
    let update = try LaunchDrill.run(store: path, session: "v2", settle: true, options: ["--screens", "v2"])
    #expect(update.outcome == "restored the latest session")
    #expect(update.dropped == "2")
    #expect(update.state == (try WireFormat.canonicalString(AnyCoordinator.stack(stack("R+home")))))
    let store = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    let start = try #require(try store.history(of: sessionID("v2")).first?.operation)
    let dropped = try #require(start.launch?.dropped.first)
    #expect(start.launch?.droppedRouteCount == 2)
    #expect((dropped.path, dropped.index, dropped.screenName, dropped.removedRouteCount) == (.top, 1, "list", 2))
    #expect(dropped.error.description.contains("ScreenV2"), "\(dropped.error)")
    #expect(start.summary.hasSuffix("; launch: restored, 2 routes dropped"), "\(start.summary)")
    #expect(try store.verify().allSatisfy(\.isIntact))
    // What support reads: `navstore history` of the new session, each drop on a line of its own.
    let history = Process()
    history.executableURL = BuiltExecutable.url(named: "navstore")
    history.arguments = ["history", "v2", "--db", path]
    let output = Pipe()
    history.standardOutput = output
    try history.run()
    let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    history.waitUntilExit()
    #expect(history.terminationStatus == 0)
    #expect(lines.first?.contains("launch: restored, 2 routes dropped") == true, "\(lines)")
    #expect(
      lines.dropFirst().first?.contains("dropped route 1 (list) in the top coordinator, with 1 more route: ") == true
        && lines.dropFirst().first?.contains("ScreenV2") == true, "\(lines)")
  }
}

/// Runs `launch-drill` (Tests/LaunchDrill) as an app's launch, and kills it (SIGKILL) once it
/// has begun playing, or gone to the background, unless it is to settle and exit.
enum LaunchDrill {
  struct Result {
    var outcome: String
    var state: String
    var dropped: String
  }

  static var binary: URL { BuiltExecutable.url(named: "launch-drill") }

  static func run(store: String, session: String, settle: Bool, options: [String] = []) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = [store, session] + (settle ? ["--settle"] : []) + options
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let marker = settle ? "settled\n" : options.contains("--quit-after-ms") ? "backgrounded\n" : "playing\n"
    var text = ""
    let deadline = ContinuousClock.now.advanced(by: .seconds(20))
    while !text.contains(marker), ContinuousClock.now < deadline {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }  // the process ended
      text += String(decoding: chunk, as: UTF8.self)
    }
    if !settle { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let lines = text.split(separator: "\n").map(String.init)
    func value(_ key: String) -> String {
      lines.first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) } ?? "(missing)"
    }
    return Result(outcome: value("outcome"), state: value("state"), dropped: value("dropped"))
  }
}
