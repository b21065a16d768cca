import ArgumentParser
import NavCore
import NavPersistence

/// `navstore verify`: checks sessions' histories against their hash chains.
struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check every (or the named) session: hash chain, sequence, snapshots.",
    discussion: """
      Prints one line per session and exits non-zero naming the first bad session and seq. \
      verify proves the history was not edited, removed or reordered since it was written; it \
      cannot tell a chain rewritten whole by someone with write access (anchor the head hash \
      elsewhere for that; see README).

      Examples:
        navstore verify
        navstore verify s-1 s-2
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The sessions to check (default: all).")
  var sessions: [String] = []

  func validate() throws {
    for session in sessions { _ = try parseSessionID(session) }
  }

  func run() throws {
    let ids = try sessions.map(parseSessionID)
    let opened = try store.open(forWriting: false)
    let results = try storeCall { () throws(StoreError) in try opened.verify(ids.isEmpty ? nil : ids) }
    for result in results {
      if let failure = result.failure {
        print("\(result.session): FAILED at seq \(failure.seq): \(failure.reason)")
      } else {
        print("\(result.session): ok (\(result.eventCount) event\(result.eventCount == 1 ? "" : "s"))")
      }
    }
    if let bad = results.first(where: { !$0.isIntact }), let failure = bad.failure {
      throw CLIError("session '\(bad.session)' fails verification at seq \(failure.seq): \(failure.reason)")
    }
  }
}
