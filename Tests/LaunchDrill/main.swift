// One launch of an app, for the launch policy's drills:
// `launch-drill STORE SESSION [--settle] [--quit-after-ms N] [--stable-ms N] [--open WORD]
//  [--decline] [--screens v2]`.
// It decides what to show (SessionStore.launch), prints the outcome and the state, starts a new
// session and plays the restore, slowly (300 ms a step). With --settle it waits for the restore
// to settle, confirms it and exits. With --quit-after-ms it goes to the background that long
// after it began (the user swiped up), says `backgrounded` and waits to be killed, as the
// system kills a suspended app. Otherwise it waits to be killed mid-play, as a crashing app
// would be. --open says the launch opens a notification (the app's word for it), which pushes
// `linked` on top of the restore, or, with --decline, declines the restore. --screens v2 reads
// the stored screens as a later version of the app whose screen type lost `list`.
import Foundation
import NavCore
import NavPersistence

/// A line on standard output, written at once (the drill reads it while this process runs).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The value after `name` in the arguments.
func value(after name: String, in arguments: [String]) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

/// The screens of a later version of the app: `list` is gone.
enum ScreenV2: String, Codable, Hashable, Sendable {
  case home, detail, linked
}

@MainActor func launch<Screen: NavigationScreen>(
  as type: Screen.Type, home: Screen, linked: Screen, arguments: [String]
) async throws {
  let store = try SessionStore(path: arguments[1])
  let stable = value(after: "--stable-ms", in: arguments).flatMap { Int($0) } ?? 50
  let policy = LaunchPolicy(
    stableFor: .milliseconds(stable),
    linkedLaunches: arguments.contains("--decline") ? .declineRestore : .restoreBeneath)
  let opening = value(after: "--open", in: arguments)
  let launch = try await store.launch(as: type, policy: policy, opening: opening)
  say("outcome: \(launch.outcome)")
  say("state: \(try launch.state.map { try WireFormat.canonicalString($0) } ?? "fresh")")
  say("dropped: \(launch.dropped.reduce(0) { $0 + $1.removedRouteCount })")
  let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID(arguments[2]), launch: launch)
  let fresh: Coordinator<Screen> = .stack([.root(home, withNavigation: true)])
  let link = opening.map { word in
    DeepLink<Screen>(word) { model in
      model.stack.dismissAll()
      model.stack.push(linked)
    }
  }
  let model = NavigationModel(
    launch.state(or: fresh), launchingFrom: launch.state?.launchState, recorder: recorder, delayMilliseconds: 300,
    opening: link)
  try await recorder.flush()
  say("playing")
  if arguments.contains("--settle") {
    try await store.confirm(launch, once: model).value
    say("settled")
  } else if let quit = value(after: "--quit-after-ms", in: arguments).flatMap({ Int($0) }) {
    store.confirm(launch, once: model)
    try await Task.sleep(for: .milliseconds(quit))
    model.appLifecycle(.background)
    try await recorder.flush()
    say("backgrounded")
    try await Task.sleep(for: .seconds(60))  // killed before this ends
  } else {
    try await Task.sleep(for: .seconds(60))  // killed before this ends
  }
}

@MainActor func run(_ arguments: [String]) async throws {
  guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: launch-drill STORE SESSION [options]\n".utf8))
    exit(2)
  }
  if value(after: "--screens", in: arguments) == "v2" {
    try await launch(as: ScreenV2.self, home: .home, linked: .linked, arguments: arguments)
  } else {
    try await launch(as: JSONValue.self, home: "home", linked: "linked", arguments: arguments)
  }
}

do {
  try await run(CommandLine.arguments)
} catch {
  FileHandle.standardError.write(Data("launch-drill: \(error)\n".utf8))
  exit(1)
}
