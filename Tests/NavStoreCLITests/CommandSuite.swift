import Foundation
import NavTestSupport

/// A suite whose tests run the built `navstore` in a folder of their own, as a person does in a
/// shell: the one runner every such suite uses.
protocol CommandSuite {
  /// The test's folder: the working directory of every command, removed when the test ends.
  var temporary: TemporaryFolder { get }
}

extension CommandSuite {
  /// Runs `navstore ARGUMENTS` in the test's folder, `stdin` on its standard input.
  func navstore(_ arguments: String..., stdin: String = "") throws -> NavStoreProcess.Result {
    try navstore(arguments, stdin: stdin)
  }

  /// Runs `navstore` in the test's folder; `environment` adds to the test's own.
  func navstore(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws
    -> NavStoreProcess.Result
  {
    try NavStoreProcess.run(arguments, stdin: stdin, in: temporary.url, environment: environment)
  }
}
