import Foundation
import Testing

/// `docs/cli-reference.md` is the commands' own help, so it cannot drift from them: below its
/// marker line, the file must be exactly what `navstore --help` and each command's `--help`
/// print, in the order `navstore` lists them. `NAVSTORE_UPDATE_DOCS=1` rewrites that part instead
/// of comparing it.
@Suite(.waitsOnProcesses) struct CLIReferenceTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/cli-reference.md")
  static let marker =
    "<!-- Everything below is generated from the commands' help: NAVSTORE_UPDATE_DOCS=1 swift test --filter CLIReference -->"

  @Test func theReferenceIsTheCommandsHelp() throws {
    let text = try String(contentsOf: Self.file, encoding: .utf8)
    let parts = text.components(separatedBy: Self.marker + "\n")
    try #require(parts.count == 2, "docs/cli-reference.md has lost its marker line")
    let generated = try Self.generated()
    if ProcessInfo.processInfo.environment["NAVSTORE_UPDATE_DOCS"] == "1" {
      try (parts[0] + Self.marker + "\n" + generated).write(to: Self.file, atomically: true, encoding: .utf8)
    } else {
      #expect(parts[1] == generated, "the help changed: run NAVSTORE_UPDATE_DOCS=1 swift test --filter CLIReference")
    }
    #expect(generated.contains("## navstore report"), "a command is missing")
  }

  /// The commands, each with its one-line abstract, as `navstore` describes itself.
  static func commands() throws -> [(name: String, abstract: String)] {
    let dump = try NavStoreProcess.run(["--experimental-dump-help"])
    try #require(dump.status == 0, "\(dump.stderr)")
    struct Help: Decodable {
      struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var subcommands: [Command]?
      }
      var command: Command
    }
    let help = try JSONDecoder().decode(Help.self, from: Data(dump.stdout.utf8))
    return (help.command.subcommands ?? []).filter { $0.commandName != "help" }.map {
      ($0.commandName, $0.abstract ?? "")
    }
  }

  /// The generated part: a table of the commands, then each one's help.
  static func generated() throws -> String {
    let commands = try commands()
    var text = "\n## Commands\n\n| command | does |\n|---|---|\n"
    for command in commands {
      text +=
        "| [`\(command.name)`](#navstore-\(command.name)) | \(command.abstract.replacingOccurrences(of: "|", with: "\\|")) |\n"
    }
    for arguments in [["--help"]] + commands.map({ [$0.name, "--help"] }) {
      let help = try NavStoreProcess.run(arguments)
      try #require(help.status == 0, "\(arguments): \(help.stderr)")
      let title = (["navstore"] + arguments.dropLast()).joined(separator: " ")
      text += "\n## \(title)\n\n```text\n\(help.stdout.trimmingCharacters(in: .newlines))\n```\n"
    }
    return text
  }
}
