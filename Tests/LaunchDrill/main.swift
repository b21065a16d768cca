// One launch of an app, for the launch policy's drills: `launch-drill STORE SESSION [--settle]`.
// It decides what to show (SessionStore.launch), prints the outcome and the state, starts a new
// session and plays the restore, slowly. With --settle it waits for the restore to settle,
// confirms it and exits; without, it waits to be killed mid-play, as a crashing app would be.
import Foundation
import NavCore
import NavPersistence

/// A line on standard output, written at once (the drill reads it while this process runs).
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

@MainActor func run(_ arguments: [String]) async throws {
  guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: launch-drill STORE SESSION [--settle]\n".utf8))
    exit(2)
  }
  let store = try SessionStore(path: arguments[1])
  let launch = try await store.launch(as: JSONValue.self, policy: LaunchPolicy(stableFor: .milliseconds(50)))
  say("outcome: \(launch.outcome)")
  say("state: \(try launch.state.map { try WireFormat.canonicalString($0) } ?? "fresh")")
  let recorder = NavigationRecorder<JSONValue>(
    store: store, session: try SessionID(arguments[2]), restoredFrom: launch.link)
  let fresh: AnyCoordinator = .stack([.root("home", withNavigation: true)])
  let model = NavigationModel(
    launch.state(or: fresh), launchingFrom: launch.state?.launchState, recorder: recorder, delayMilliseconds: 300)
  try await recorder.flush()
  say("playing")
  if arguments.contains("--settle") {
    try await store.confirm(launch, once: model).value
    say("settled")
  } else {
    try await Task.sleep(for: .seconds(60))  // killed before this ends
  }
}

do {
  try await run(CommandLine.arguments)
} catch {
  FileHandle.standardError.write(Data("launch-drill: \(error)\n".utf8))
  exit(1)
}
