import ArgumentParser
import Foundation
import NavCore
import NavPersistence

/// The `navstore` command: the entry point people and scripts use to inspect and replay
/// recorded navigation sessions.
@main
struct NavStoreCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "navstore",
    abstract: "Durable, explainable navigation state for coordinator-style Swift apps.",
    discussion: """
      NavStore records every navigation change of an app session in SQLite, rebuilds the \
      state at any point of its history, and replays it through the legal, delayed steps a \
      SwiftUI host needs.

      Start with 'navstore demo', which writes a store of sample sessions and prints \
      commands to try on it. Every command reads the store named by --db, or by the \
      NAVSTORE_DB environment variable, or navstore.sqlite in the current folder.
      """,
    version: NavStoreVersion.current,
    subcommands: [
      DemoCommand.self, InitCommand.self, AppendCommand.self, ImportCommand.self, SessionsCommand.self,
      ShowCommand.self,
      HistoryCommand.self, ReplayCommand.self, VerifyCommand.self, ExportCommand.self, PlanCommand.self,
      KeygenCommand.self, CheckpointCommand.self, ProveCommand.self, ForgetCommand.self, PruneCommand.self,
      ReportCommand.self, BackupCommand.self, BundleCommand.self, FixtureCommand.self, TokenCommand.self,
      ServeCommand.self,
      PushCommand.self,
    ]
  )

  /// Runs the command; any failure is one line on stderr and a non-zero exit status (help and
  /// `--version` print as usual).
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asynchronous = command as? AsyncParsableCommand {
        try await asynchronous.run()
      } else {
        try command.run()
      }
      // `print` ignores write errors (a full disk, a closed pipe); a failed flush must not exit 0.
      if fflush(nil) != 0 {
        throw CLIError("cannot write to standard output (\(String(cString: strerror(errno))))")
      }
    } catch {
      let status = exitCode(for: error)
      if status == .success { exit(withError: error) }
      let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
      try? FileHandle.standardError.write(contentsOf: Data("navstore: \(message)\n".utf8))
      Foundation.exit((error as? CLIError)?.exitStatus ?? status.rawValue)
    }
  }
}
