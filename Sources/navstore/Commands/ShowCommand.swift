import ArgumentParser
import NavCore
import NavPersistence

/// `navstore show`: a session's navigation state, after its last event or any earlier one.
struct ShowCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Show a session's navigation state as a tree, or as Coordinator JSON.",
    discussion: """
      Examples:
        navstore show s-1
        navstore show s-1 --at 12 --json
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session id.", transform: sessionArgument)
  var session: SessionID

  @Option(parsing: .unconditional, help: "Show the state after this event (default: the last).")
  var at: Int?

  @Flag(help: "Print Coordinator JSON.")
  var json = false

  func validate() throws {
    if let at, at < 1 { throw ValidationError("--at must be 1 or more, not \(at)") }
  }

  func run() async throws {
    let current = try await store.state(of: session, at: at)
    let (state, seq) = (current.state, current.seq)
    if json {
      print(try WireFormat.canonicalString(state))
    } else {
      print("session \(session) after seq \(seq)")
      print(state.description)
    }
  }
}
