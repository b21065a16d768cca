import Foundation

/// The `navstore` commands a benchmark runs besides `serve`.
public struct NavstoreCommands {
  /// The executable.
  public let navstore: URL

  /// The commands of the `navstore` at `navstore`.
  public init(navstore: URL) { self.navstore = navstore }

  /// The `navstore` beside this executable (`swift build -c release --product navstore`).
  public static func beside() throws -> NavstoreCommands {
    let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("navstore")
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw ProcessFailure(
        "\(CommandLine.arguments[0]) needs navstore beside it: swift build -c release --product navstore")
    }
    return NavstoreCommands(navstore: url)
  }

  /// A new token of `role` for `app` in the store `database` names.
  public func token(app: String, role: String, database: [String]) throws -> String {
    try run(["token", "create", "--app", app, "--role", role] + database, output: true)
  }

  /// Runs `navstore ARGUMENTS` to its end; its standard output when asked for.
  @discardableResult
  public func run(_ arguments: [String], output: Bool = false) throws -> String {
    try Shell.run(navstore, arguments, output: output)
  }
}
