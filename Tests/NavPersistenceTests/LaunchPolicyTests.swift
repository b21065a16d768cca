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
}

/// Runs `launch-drill` (Tests/LaunchDrill) as an app's launch, and kills it mid-play unless it
/// is to settle.
enum LaunchDrill {
  struct Result {
    var outcome: String
    var state: String
  }

  static var binary: URL { BuiltExecutable.url(named: "launch-drill") }

  static func run(store: String, session: String, settle: Bool) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = [store, session] + (settle ? ["--settle"] : [])
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var text = ""
    let deadline = ContinuousClock.now.advanced(by: .seconds(20))
    while !text.contains(settle ? "settled\n" : "playing\n"), ContinuousClock.now < deadline {
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
    return Result(outcome: value("outcome"), state: value("state"))
  }
}
