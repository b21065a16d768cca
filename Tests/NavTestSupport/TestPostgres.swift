import Foundation
import Testing

/// The PostgreSQL server the tests that need one use: `NAVSTORE_POSTGRES_URL` names it
/// (`Scripts/throwaway-postgres.sh start` starts one and prints its address). Without it those
/// tests are skipped, with a line saying so, unless `NAVSTORE_REQUIRE_POSTGRES=1` (set by CI)
/// makes its absence a failure.
public enum TestPostgres {
  /// The server's address, when the environment names one.
  public static let url: String? = ProcessInfo.processInfo.environment["NAVSTORE_POSTGRES_URL"].flatMap {
    $0.isEmpty ? nil : $0
  }
  /// A hot standby of it (`Scripts/throwaway-postgres.sh standby`), when the environment names
  /// one (`NAVSTORE_POSTGRES_REPLICA_URL`; CI does, and requires it with the server).
  public static let replicaURL: String? = ProcessInfo.processInfo.environment["NAVSTORE_POSTGRES_REPLICA_URL"]
    .flatMap { $0.isEmpty ? nil : $0 }
  /// Whether this run must have it.
  public static let isRequired = ProcessInfo.processInfo.environment["NAVSTORE_REQUIRE_POSTGRES"] == "1"
  /// Whether the tests that need it run.
  public static let runs = url != nil || isRequired
  /// Why they are skipped when they are.
  public static let skipReason: Comment =
    "no PostgreSQL: set NAVSTORE_POSTGRES_URL (Scripts/throwaway-postgres.sh start prints one)"

  /// How long a test's fleet lets a database call take: far past what any call needs, because
  /// a fleet's deadline counts real time, and at a full run's start hundreds of tests share two
  /// threads, so the call's work may wait its turn for tens of seconds. Tests of the deadline
  /// itself set their own.
  public static let patientOperationTimeout: Duration = .seconds(180)

  /// An app name no other test uses: each test keeps to its own app in the shared database.
  public static func uniqueApp(_ prefix: String = "t") -> String {
    prefix + "-" + UUID().uuidString.lowercased().prefix(12)
  }

  /// The `psql` on the PATH or in Debian's PostgreSQL folder.
  public static let psql: URL? = {
    let folders =
      (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
      + ["/usr/lib/postgresql/15/bin"]
    return folders.map { URL(fileURLWithPath: $0).appendingPathComponent("psql") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  /// Runs `sql` through `psql` against the server (or `on` another), as an operator would;
  /// returns what it printed.
  @discardableResult
  public static func psql(_ sql: String, on server: String? = nil) throws -> String {
    guard let psql, let url = server ?? url else {
      throw PostgresUnavailable(reason: "psql or NAVSTORE_POSTGRES_URL is missing")
    }
    let process = Process()
    process.executableURL = psql
    process.arguments = [url, "-v", "ON_ERROR_STOP=1", "-tAq", "-c", sql]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw PostgresUnavailable(reason: "psql: \(complaint)") }
    return printed
  }

  /// Why a test could not reach the server.
  public struct PostgresUnavailable: Error, CustomStringConvertible {
    public let reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
  }
}
