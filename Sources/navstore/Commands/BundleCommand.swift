import ArgumentParser
import NavCore
import NavPersistence

/// `navstore bundle`: one session, with the sessions it continues, in a new JSON Lines file.
struct BundleCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bundle",
    abstract: "Write a session, with the sessions it was restored from, to a new JSON Lines file.",
    discussion: """
      For a support ticket: the session, the session it continues (restoredFrom), that one's, \
      and so on, oldest first, each with its whole history in the wire format. 'navstore import' \
      reads the file into any store, where the sessions verify. Never writes over an existing file.

      Examples:
        navstore bundle launch-7 --out ticket-4711.jsonl
        navstore import ticket-4711.jsonl --db ticket.sqlite && navstore report launch-7 --db ticket.sqlite
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session to bundle.", transform: sessionArgument)
  var session: SessionID

  @Option(help: "The new file to write (it must not exist).")
  var out: String

  func validate() throws {
    guard !out.isEmpty else { throw ValidationError("--out: the path is empty") }
  }

  func run() async throws {
    let (session, out) = (session, out)
    let written = try await store.withSessions { sessions in try await sessions.bundle(session, to: out) }
    let names = written.map(\.rawValue).joined(separator: ", ")
    print("bundle of \(written.count) session\(written.count == 1 ? "" : "s") (\(names)) written to \(out)")
  }
}
