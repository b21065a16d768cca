import ArgumentParser
import NavCore
import NavPersistence

/// `navstore verify`: checks sessions' histories against their hash chains.
struct VerifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check every (or the named) session: hash chain, sequence, snapshots.",
    discussion: """
      Prints each session that fails (with the first bad seq and why), then one summary line: \
      sessions checked, events, problems. --verbose also prints a line for every intact session. \
      Exits non-zero naming the first bad session and seq. Sessions are checked one at a time, \
      so a store of any size verifies in constant memory.

      verify proves the history was not edited, removed or reordered since it was written; it \
      cannot tell a chain rewritten whole by someone with write access (anchor the head hash \
      elsewhere for that; see README).

      Examples:
        navstore verify
        navstore verify --verbose s-1 s-2
      """)

  @OptionGroup var store: StoreOption

  @Flag(name: .shortAndLong, help: "Print one line per session, intact or not.")
  var verbose = false

  @Argument(help: "The sessions to check (default: all).", transform: sessionArgument)
  var sessions: [SessionID] = []

  func run() throws {
    let opened = try store.open(forWriting: false)
    let progress = ProgressCounter(label: "verifying", unit: "sessions")
    var checked = 0
    let summary = try storeCall { () throws(StoreError) in
      try opened.verify(sessions.isEmpty ? nil : sessions) { result in
        checked += 1
        progress.update(checked)
        if let failure = result.failure {
          progress.clear()
          print("\(result.session): FAILED at seq \(failure.seq): \(failure.reason)")
        } else if verbose {
          progress.clear()
          print("\(result.session): ok (\(Self.events(result.eventCount)))")
        }
      }
    }
    progress.finish()
    let problems = summary.failures == 1 ? "1 problem" : "\(summary.failures) problems"
    print("verified \(summary.sessions) session\(summary.sessions == 1 ? "" : "s"), \(Self.events(summary.events)): \(problems)")
    if let bad = summary.firstFailure, let failure = bad.failure {
      throw CLIError("session '\(bad.session)' fails verification at seq \(failure.seq): \(failure.reason)")
    }
  }

  private static func events(_ count: Int) -> String { "\(count) event\(count == 1 ? "" : "s")" }
}
