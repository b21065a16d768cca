import Foundation
import NavCore
import NavPersistence
import NavUpload

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fourth launch: the app ships its sessions to a collector, and loses none while the
/// collector is away.
///
/// The example plays the collector's operator too: it starts `navstore serve` (the binary
/// `--navstore` names) on loopback, creates the app's tokens, stops the collector to put the
/// app offline, and starts it again. An app does none of that: it holds a collector address
/// and an ingest token, and calls `start()` and `flush()`.
extension Launches {
  @MainActor static func uploadingLaunch(path: String, navstore: String) async throws {
    print("\n== launch 4: uploading to a collector")
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let collectorSide = CollectorOperator(navstore: navstore, folder: folder)
    var collector = try collectorSide.start(port: 0)
    defer { collector.stop() }  // also when a check fails
    let ingest = try collectorSide.token(role: "ingest")
    print("  collector at \(collector.url) (navstore serve)")
    let store = try SessionStore(path: path)
    // What the app writes at launch: the uploader sends in the background, every second here
    // (30 s by default), and goes back to a collector that was away within 2 s (10 minutes).
    let uploader = NavigationUploader(
      store: store, collector: collector.url, token: ingest,
      configuration: UploadConfiguration(
        flushAt: 5, interval: .seconds(1), pollInterval: .milliseconds(200), maximumBackoff: .seconds(2)))
    let backlog = try await uploader.pending()
    await uploader.start()
    try await waitUntilNothingWaits(uploader, within: .seconds(20))
    print("  backfill: \(backlog.events) events of \(backlog.sessions) sessions from before the uploader, sent")

    collector.stop()
    print("  the collector stops: the app is offline")
    let recorder = NavigationRecorder<Screen>(store: store, session: try SessionID("launch-4"))
    let app = App(NavigationModel(Screen.launchNavigation, recorder: recorder, cause: Action.appLaunched))
    for action in [Action.numbersTapped, .numberTapped(11), .numberTapped(12), .tabTapped(1)] {
      app.send(action)
      print("  \(action) -> \(app.navigation.state.visiblePath)")
    }
    app.navigation.appLifecycle(.background)
    try await recorder.flush()
    // Moving to the background, the app asks for an upload: the collector is out of reach, so
    // the events wait in the store, counted.
    // It returns at once (within the 5 s the system would give it), saying when it will retry.
    let offline = await uploader.flush(within: .seconds(5))
    let waiting = try await uploader.pending()
    guard case .willRetry(let wait) = offline else {
      throw ExampleFailure(description: "check failed: a flush while offline ended \(offline)")
    }
    print(
      "  flush while offline: will retry in \(wait <= .seconds(1) ? "a second or less" : "more than a second");"
        + " \(waiting.events) events of \(waiting.sessions) session(s) wait")
    try check(waiting.events > 0, "nothing is lost or sent while offline")

    collector = try collectorSide.start(port: collector.port)
    print("  the collector is back")
    try await waitUntilNothingWaits(uploader, within: .seconds(20))
    await uploader.stop()
    print("  the background loop sent what waited")

    // The collector's heads against the device's, read as support would (GET .../head with a
    // read token): every session, every event, the same chain.
    let reader = try collectorSide.token(role: "read")
    for session in try await store.read({ try $0.sessions() }) {
      let held = try await collectorSide.head(of: session.id, at: collector.url, token: reader)
      let last = try await store.read { try $0.history(of: session.id, from: session.eventCount) }.last
      print("  \(session.id): device \(session.eventCount) events, collector \(held?.seq ?? 0)")
      try check(held?.seq == session.eventCount && held?.hash == last?.hash, "\(session.id) arrived whole")
    }
    collector.stop()
  }

  /// Waits for the uploader's background loop to leave nothing waiting.
  static func waitUntilNothingWaits(_ uploader: NavigationUploader, within limit: Duration) async throws {
    let deadline = ContinuousClock.now + limit
    while try await uploader.pending().events > 0 {
      try check(ContinuousClock.now < deadline, "the uploader sent everything within \(limit)")
      try await Task.sleep(for: .milliseconds(100))
    }
  }
}

/// The collector's side, as its operator runs it: `navstore serve` on loopback over a store
/// beside the app's, and tokens from `navstore token create`.
struct CollectorOperator {
  let navstore: String
  let folder: URL
  var database: String { folder.appendingPathComponent("collector.sqlite").path }

  /// A running `navstore serve`.
  struct Running {
    let process: Process
    let url: URL
    let port: Int

    /// Stops it as an operator would (SIGTERM), and waits; nothing if it already stopped.
    func stop() {
      guard process.isRunning else { return }
      process.terminate()
      process.waitUntilExit()
    }
  }

  /// Starts the collector on `port` (0: one the system picks) and waits for it to listen.
  func start(port: Int) throws -> Running {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: navstore)
    process.arguments = ["serve", "--db", database, "--listen", "127.0.0.1:\(port)"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let byte = output.fileHandleForReading.readData(ofLength: 1)
      guard !byte.isEmpty else { break }
      line.append(byte)
    }
    let said = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard said.hasPrefix("listening on "), let url = URL(string: String(said.dropFirst("listening on ".count))),
      let listening = url.port
    else { throw ExampleFailure(description: "navstore serve did not start: '\(said)'") }
    return Running(process: process, url: url, port: listening)
  }

  /// The head the collector at `url` holds for `session` (`nil`: it has none), asked with a
  /// read token: `GET /v1/sessions/{id}/head`.
  func head(of session: SessionID, at url: URL, token: String) async throws -> Head? {
    var request = URLRequest(url: url.appendingPathComponent("v1/sessions/\(session.rawValue)/head"))
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let (body, response) = try await URLSession.shared.data(for: request)
    switch (response as? HTTPURLResponse)?.statusCode {
    case 200: return try JSONDecoder().decode(Head.self, from: body)
    case 404: return nil
    case let status: throw ExampleFailure(description: "the collector answered \(status ?? 0) for \(session)'s head")
    }
  }

  /// A session's head as the collector's contract writes it.
  struct Head: Decodable {
    let seq: Int
    let hash: String?
  }

  /// A new token of the app `restoring-app` with `role`.
  func token(role: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: navstore)
    process.arguments = ["token", "create", "--app", "restoring-app", "--role", role, "--db", database]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let token = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw ExampleFailure(description: "navstore token create failed") }
    return token.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
