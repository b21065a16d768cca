import Foundation
import NavCore
import NavPersistence

/// A session of the reducer app: actions go in, the store records each change with its action
/// as the cause; an action a reducer refuses records nothing; the next launch restores.
@main struct ReducerApp {
  static func main() async {
    do {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reducer-app-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let path = folder.appendingPathComponent("app.sqlite").path
      try await run(path: path)
    } catch {
      FileHandle.standardError.write(Data("ReducerApp: \(error)\n".utf8))
      exit(1)
    }
  }

  @MainActor static func run(path: String) async throws {
    let store = try SessionStore(path: path)
    let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("reducer-1"))
    let app = AppStore(NavigationModel(Screen.launchNavigation, recorder: recorder))

    print("== actions")
    let actions: [AppAction] = [
      .mail(.threadTapped(id: 41)), .mail(.replyTapped), .mail(.backTapped), .mail(.sendTapped),
      .tabSelected(1), .settings(.signatureTapped), .notificationOpened(thread: 7), .mail(.replyTapped),
    ]
    var refused = 0
    for action in actions {
      let text = try WireFormat.canonicalString(action)
      do {
        try app.send(action)
        print("  \(text) -> \(app.navigation.state.visiblePath)")
      } catch {
        refused += 1
        print("  \(text) refused, nothing changed: \(error)")
      }
    }
    try await recorder.flush()

    print("\n== what the store holds: every change with the action that caused it")
    for (index, event) in try await store.read({ try $0.history(of: recorder.session) }).enumerated() {
      let cause = try event.cause.map { try WireFormat.canonicalString($0) } ?? "-"
      let name = event.operation.name.padding(toLength: 12, withPad: " ", startingAt: 0)
      print("  \(index + 1)  \(name)  \(cause)")
    }

    print("\n== the next launch")
    let restored = try await store.read { try $0.restore(recorder.session, as: Screen.self) }
    print("  restores \(restored.state.visiblePath)")
    try check(refused == 1, "the one impossible action (popping a sheet) was refused")
    try check(restored.state == app.navigation.state, "the store replays to where the app is")
    try check(try await store.read { try $0.verify() }.allSatisfy(\.isIntact), "the session verifies")
    print("  verify: intact")
  }

  /// Stops the example with a message when what it shows is not what it says.
  static func check(_ condition: Bool, _ what: String) throws {
    if !condition { throw ExampleFailure(description: "check failed: \(what)") }
  }
}

/// A check of the example's own that did not hold.
struct ExampleFailure: Error, CustomStringConvertible {
  var description: String
}
