import ArgumentParser
import NavCore

extension EventOrigin: ExpressibleByArgument {
  /// Reads an origin by its wire-format name: `app` or `user`.
  public init?(argument: String) {
    self.init(rawValue: argument)
  }

  /// The names `--help` lists.
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
