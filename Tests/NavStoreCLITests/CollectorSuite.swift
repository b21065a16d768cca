import Foundation
import NavTestSupport
import Testing

/// A suite whose tests each work in a folder of their own with a collector's store in it
/// (`collector.sqlite`), through the built `navstore`, as an operator does.
protocol CollectorSuite: CommandSuite {
  /// The test's folder, the working directory of every process it runs.
  var folder: TemporaryFolder { get }
}

extension CollectorSuite {
  /// The folder every command runs in.
  var temporary: TemporaryFolder { folder }

  /// A new token of `app` with `role` in `collector.sqlite`; `extra` adds options (a label, an
  /// expiry).
  func token(_ role: String = "ingest", app: String = "drill", extra: [String] = []) throws -> String {
    try navstore(["token", "create", "--app", app, "--role", role, "--db", "collector.sqlite"] + extra).stdout
      .trimmingCharacters(in: .newlines)
  }

  /// `navstore serve` on `db`, on loopback at a port the system picks, with `options`; its log
  /// goes to `log` when given. The test stops here if it did not start.
  func serve(
    _ options: [String] = [], db: String = "collector.sqlite", log: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> CollectorProcess {
    let server = try CollectorProcess(db: db, in: folder.url, options: options, log: log)
    try #require(server.url.hasPrefix("http://127.0.0.1:"), "serve did not start", sourceLocation: sourceLocation)
    return server
  }
}
