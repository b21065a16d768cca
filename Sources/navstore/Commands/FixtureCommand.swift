import ArgumentParser
import Foundation
import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools
import NavUpload

/// `navstore fixture`: a ticket's session, with the sessions it was restored from, as a test
/// fixture an app's tests replay (NavTesting), and the test to paste.
struct FixtureCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fixture",
    abstract: "Write a session, with the sessions it was restored from, as a regression test's fixture.",
    discussion: """
      The session and the sessions it continues (restoredFrom), oldest first, as JSON Lines: \
      everything a replay reads (screens, the app's actions, origins, times, the launch and the \
      host profile). The start's personal fields (userId, deviceKey and the app's own context \
      keys) are left out, and with them the hashes, unless --keep-personal keeps the lines \
      whole, as 'navstore bundle' writes them. Prints the test to paste into the app's test \
      target, which links NavTesting. Never writes over an existing file.

      From a collector (--from URL), with a read token from --token or $NAVSTORE_TOKEN, the \
      collector writes the same lines (GET /v1/sessions/ID/bundle).

      Examples:
        navstore fixture launch-7 --out Tests/AppTests/Fixtures/ticket-4711.jsonl
        navstore fixture launch-7 --out ticket-4711.jsonl --db postgres://support@db/navstore --app ios
        NAVSTORE_TOKEN=$(cat read.token) navstore fixture launch-7 --out ticket-4711.jsonl --from https://collector.example
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session the ticket is about.", transform: sessionArgument)
  var session: SessionID

  @Option(help: "The new file to write (it must not exist).")
  var out: String

  @Flag(help: "Keep the start's personal fields (and the hashes): the lines as 'navstore bundle' writes them.")
  var keepPersonal = false

  @Option(help: "A collector's address to read the session from, like https://collector.example (instead of --db).")
  var from: String?

  @Option(help: "With --from, the read token (default: $NAVSTORE_TOKEN).")
  var token: String?

  func validate() throws {
    guard !out.isEmpty else { throw ValidationError("--out: the path is empty") }
    if let from {
      guard let url = URL(string: from), url.scheme == "http" || url.scheme == "https", url.host != nil else {
        throw ValidationError("--from: give the collector's address, like http://127.0.0.1:8740")
      }
      guard store.location.path == nil, store.app == nil else {
        throw ValidationError("--from reads a collector: leave out --db and --app (the token names the app)")
      }
    } else if token != nil {
      throw ValidationError("--token goes with --from")
    }
  }

  func run() async throws {
    let (session, out, keepPersonal) = (session, out, keepPersonal)
    // Refused before anything is read: an existing file, or a folder that is not there.
    let file = try storeCall { () throws(StoreError) in try NewFile(at: out) }
    let written =
      if let from {
        try await fetch(session, from: from, into: file)
      } else {
        try await write(session, into: file)
      }
    let names = written.map(\.rawValue).joined(separator: ", ")
    print("fixture of \(written.count) session\(written.count == 1 ? "" : "s") (\(names)) written to \(out)")
    print(
      keepPersonal
        ? "kept whole: personal fields and hashes"
        : "left out: \(FixtureLine.personalFields.joined(separator: ", ")) and the hashes (--keep-personal keeps them)")
    print("")
    print(Self.test(for: session, fixture: (out as NSString).lastPathComponent))
  }

  /// The fixture from a collector: its bundle, written as it came. Returns the sessions in it.
  private func fetch(_ session: SessionID, from address: String, into file: NewFile) async throws -> [SessionID] {
    guard let token = token ?? ProcessInfo.processInfo.environment["NAVSTORE_TOKEN"], !token.isEmpty else {
      throw CLIError("give the collector's read token with --token or NAVSTORE_TOKEN")
    }
    guard let base = URL(string: address) else { throw CLIError("--from: not an address") }
    let body: [UInt8]
    do {
      guard
        let bundle = try await CollectorClient(base: base, token: token).bundle(
          of: session, keepingPersonal: keepPersonal)
      else { throw CLIError("the collector holds no session \(session) for this token's app") }
      body = bundle
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError("cannot read the session from \(address): \(error)")
    }
    var sessions: [SessionID] = []
    for line in body.split(separator: 0x0A) where !line.isEmpty {
      guard let event = try? WireFormat.decode(AnyEvent.self, from: line) else {
        throw CLIError("the collector's answer is not JSON Lines of events")
      }
      if sessions.last != event.session { sessions.append(event.session) }
    }
    try storeCall { () throws(StoreError) in
      try file.writeContents { output throws(StoreError) in
        try StoreEngine.callingBack { try output.write(contentsOf: body) }
      }
    }
    return sessions
  }

  /// The fixture from the store `--db` names: its bundle, each line rewritten as a fixture
  /// keeps it. Returns the sessions in it.
  private func write(_ session: SessionID, into file: NewFile) async throws -> [SessionID] {
    let scratch = out + ".bundle-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let written = try await store.withSessions { sessions in try await sessions.bundle(session, to: scratch) }
    let keepPersonal = keepPersonal
    try storeCall { () throws(StoreError) in
      try file.writeContents { output throws(StoreError) in
        guard let input = FileHandle(forReadingAtPath: scratch) else { throw .readOnly(path: scratch) }
        defer { try? input.close() }
        let lines = LineReader(handle: input)
        while true {
          let next: ArraySlice<UInt8>?
          do throws(LineReaderError) {
            next = try lines.next()
          } catch {
            throw .unreadableInput(error)
          }
          guard let line = next else { break }
          guard !line.isEmpty else { continue }
          let rewritten: [UInt8]
          do throws(WireFormatError) {
            rewritten = try FixtureLine.rewrite(line, keepingPersonal: keepPersonal)
          } catch {
            throw .invalidLine(line: lines.lineNumber, error)
          }
          try StoreEngine.callingBack { try output.write(contentsOf: rewritten) }
        }
      }
    }
    return written
  }

  /// The test to paste, for a fixture named `fixture` in the test target's `Fixtures` folder.
  static func test(for session: SessionID, fixture: String) -> String {
    let words = session.rawValue.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
    let name = "replays" + words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return """
      Put the file in your test target's Fixtures folder (exclude: ["Fixtures"] in its target), \
      then paste, naming your app's types:

        import NavTesting
        import Testing
        @testable import YourApp

        @Test @MainActor func \(name)() throws {
          let recorded = try RecordedSession(fixture: "\(fixture)")
          try SessionReplay(recorded, screens: Screen.self, actions: Action.self)
            .run(app: { App($0) }, send: { app, action in try app.send(action) })
        }
      """
  }
}
