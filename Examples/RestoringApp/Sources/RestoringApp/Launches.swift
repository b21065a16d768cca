import Foundation
import NavCore
import NavPersistence

/// Three launches of one app against one store:
/// 1. a first launch records the user's navigation, then the app quits;
/// 2. the next launch restores the latest session step by step on a real clock, as a SwiftUI
///    host needs, while a notification's deep link arrives in the middle;
/// 3. a later version of the app, whose screen enum changed, restores the same store and is
///    told what it could not decode;
/// 4. with `--navstore PATH`, the app uploads its sessions to a collector, goes offline while it
///    records, and comes back: the collector ends up holding exactly the device's sessions.
@main struct Launches {
  static func main() async {
    let arguments = CommandLine.arguments
    let delay = arguments.firstIndex(of: "--delay-ms").flatMap {
      arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil
    }
    let navstore = arguments.firstIndex(of: "--navstore").flatMap {
      arguments.indices.contains($0 + 1) ? URL(fileURLWithPath: arguments[$0 + 1]).standardizedFileURL.path : nil
    }
    do {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("restoring-app-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let path = folder.appendingPathComponent("app.sqlite").path
      try await firstLaunch(path: path)
      try await nextLaunch(path: path, delayMilliseconds: delay ?? StepPlan<Screen>.defaultDelayMilliseconds)
      try await laterVersionLaunch(path: path, delayMilliseconds: delay ?? StepPlan<ScreenV2>.defaultDelayMilliseconds)
      if let navstore {
        try await uploadingLaunch(path: path, navstore: navstore)
      } else {
        print("\n(launch 4, uploading to a collector, runs with --navstore PATH-TO-NAVSTORE)")
      }
      try summary(path: path)
    } catch {
      FileHandle.standardError.write(Data("RestoringApp: \(error)\n".utf8))
      exit(1)
    }
  }

  // MARK: 1. Recording

  @MainActor static func firstLaunch(path: String) async throws {
    print("== launch 1: recording")
    let store = try SessionStore(path: path)
    // What the session runs on, written once into its start: support finds it by these.
    let context = SessionContext(
      appVersion: "1.0", appBuild: "1", osName: "Linux", deviceModel: "headless", locale: "en_US", timeZone: "UTC",
      userID: "example-install")
    let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-1"), context: context)
    let app = App(NavigationModel(Screen.launchNavigation, recorder: recorder, cause: Action.appLaunched))
    let actions: [Action] = [
      .numbersTapped, .numberTapped(3), .numberTapped(7), .tabTapped(1), .sectionTapped("privacy"), .tabTapped(0),
      .onboardingStarted, .nextStepTapped, .nextStepTapped,
    ]
    for action in actions {
      app.send(action)  // returns at once: the recorder writes in the background
      print("  \(action) -> \(app.navigation.state.visiblePath)")
    }
    // A back swipe in the onboarding flow: the host reports it, the model records it as the user's.
    app.onboarding.shownRoutes.removeLast()
    print("  back swipe -> \(app.navigation.state.visiblePath)")
    app.send(.promoShown("SPRING"))
    print("  promoShown -> \(app.navigation.state.visiblePath)")
    try check(app.navigation.lastFailure == nil, "every action was possible")
    // The app moves to the background (the screen on top stops counting as seen): make
    // everything handed over durable, then quit.
    app.navigation.appLifecycle(.background)
    try await recorder.flush()
    let stored = try await store.read { try $0.history(of: recorder.session) }
    try check(stored.last?.operation == .background, "the last event is the app leaving")
    print("  background; quit; the store holds \(stored.count) events for launch-1")
  }

  // MARK: 2. Restoring, step by step

  @MainActor static func nextLaunch(path: String, delayMilliseconds: Int) async throws {
    print("\n== launch 2: restoring the latest session")
    let store = try SessionStore(path: path)
    // What to bring back: the latest session, unless the user ended it, it is older than the
    // app allows, or the last launches crashed while restoring it.
    let launch = try await store.launch(as: Screen.self, policy: LaunchPolicy(maximumAge: .seconds(12 * 3600)))
    print("  \(launch.outcome)")
    guard let restoredState = launch.state else { return }
    print("  restoring \(launch.link.map { "\($0.session) at seq \($0.seq)" } ?? "-"): \(restoredState.visiblePath)")
    try check(
      launch.outcome == .restored && launch.dropped.isEmpty, "the version that wrote the session decodes all of it")

    // The new session says which one it continues and what the launch did; its first state is
    // the restored one. The host starts at the launch state and the model takes it to the
    // restored state one legal step at a time: steps 0 and 1 at once, then one every delay.
    let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-2"), launch: launch)
    let start = ContinuousClock.now
    let model = NavigationModel(
      restoredState, launchingFrom: restoredState.launchState, recorder: recorder, host: .navigationView,
      delayMilliseconds: delayMilliseconds
    ) { shown in print(String(format: "  %5d ms  %@", milliseconds(since: start), shown.visiblePath)) }
    let app = App(model)
    // Once the restore is on screen and the app stayed up, the store notes that it settled.
    let settling = store.confirm(launch, once: model)

    // A notification opens number 9 while the restore is still playing: the model drops the
    // rest of the plan and goes there from whatever is on screen, so nothing jumps.
    try await Task.sleep(for: .milliseconds(delayMilliseconds * 3 / 2))
    print("  notification: number 9")
    app.send(.notificationOpened(number: 9))
    await model.settled()
    print("  shown: \(model.shown.visiblePath)")
    try await recorder.flush()
    try check(model.shown == model.state, "the screen ends where the app is")
    try check(
      try await store.read { try $0.restore(recorder.session, as: Screen.self) }.state == model.state,
      "the log ends where the app is")
    try await settling.value
  }

  // MARK: 3. A later version

  @MainActor static func laterVersionLaunch(path: String, delayMilliseconds: Int) async throws {
    print("\n== launch 3: version 2 of the app (promo removed, numberDetail gained a field)")
    let store = try SessionStore(path: path)
    var droppedScreens: [String] = []
    for session in ["launch-1", "launch-2"] {
      let restored = try await store.read { try $0.restore(try SessionID(session), as: ScreenV2.self) }
      droppedScreens += restored.dropped.map(\.screenName)
      print("  \(session) at seq \(restored.seq) restores as \(restored.state.visiblePath)")
      for dropped in restored.dropped {
        print(
          "    dropped \(dropped.removedRouteCount) route(s) at \(dropped.path), from route \(dropped.index) (\(dropped.screenName)): \(dropped.error.message)"
        )
      }
    }
    try check(droppedScreens == ["numberDetail", "promo", "numberDetail"], "version 2 drops what it cannot decode")
    guard let latest = try await store.read({ try $0.latestSession() }) else { return }
    let restored = try await store.read { try $0.restore(latest.id, as: ScreenV2.self) }
    let recorder = NavigationRecorder<ScreenV2>(
      store: store, session: try SessionID("launch-3"), restoredFrom: restored.link)
    let start = ContinuousClock.now
    let model = NavigationModel(
      restored.state, launchingFrom: restored.state.launchState, recorder: recorder,
      delayMilliseconds: delayMilliseconds
    ) { shown in print(String(format: "  %5d ms  %@", milliseconds(since: start), shown.visiblePath)) }
    await model.settled()
    try await recorder.flush()
    try check(model.shown == restored.state, "the screen ends at the restored state")
  }

  /// Stops the example with a message when what it shows is not what it says.
  static func check(_ condition: Bool, _ what: String) throws {
    if !condition { throw ExampleFailure(description: "check failed: \(what)") }
  }

  // MARK: What the store holds now

  static func summary(path: String) throws {
    let store = try SessionStore(path: path)
    print("\n== the store")
    for session in try store.sessions() {
      let link = session.restoredFrom.map { ", restored from \($0)" } ?? ""
      let version = session.context?.appVersion.map { ", app \($0)" } ?? ""
      print("  \(session.id): \(session.eventCount) events\(link)\(version)")
    }
    let intact = try store.verify().allSatisfy(\.isIntact)
    print("  verify: \(intact ? "every session intact" : "TAMPERED")")
    print("  look closer: navstore history launch-2 --db \(path)")
    if !intact { exit(1) }
  }
}

/// A check of the example's own that did not hold.
struct ExampleFailure: Error, CustomStringConvertible {
  var description: String
}
