#if Collector
import Foundation
import Logging
import NavCore
@_spi(Internals) import NavHistory
import PostgresNIO
import Synchronization

/// A fleet's store on PostgreSQL: every app's sessions and the tokens that reach them, in one
/// database that any number of collectors share (`navstore serve --db postgres://...`).
///
/// The rows say what a SQLite store's say, decided by the same rules in Swift
/// (`SessionAppender`, `UploadDecision`, `HistoryAudit`); the schema is
/// `migrations/postgresql/`. Its connections are a pool of at most `connections`, which lives
/// while `run()` runs: run it in a task for as long as the fleet is used (`withFleet` does).
package final class PostgresFleet: Sendable {
  /// Where the database is (its description leaves the password out).
  package let address: PostgresAddress
  /// The pool.
  let client: PostgresClient
  let logger: Logger
  /// Events between two snapshots of a session's state.
  let snapshotInterval: Int
  /// The sessions' states after their last events, as this process last wrote or read them,
  /// trusted only while the session's row still has the same head.
  let heads: HeadStates
  /// The months whose partitions this process knows exist.
  let partitions = Mutex<Set<Int>>([])
  /// Each app's uploads waiting to be written together (made at an app's first upload).
  let groups = Mutex<[AppName: GroupCommit<PendingUpload, UploadOutcome, FleetError>]>([:])

  /// How long one call may wait for the database (a connection, its queries, the commit).
  let operationTimeout: Duration
  /// The pool's size.
  let connections: Int

  /// The pool's default size: enough for a collector on a few cores, well under PostgreSQL's
  /// default 100 connections for several collectors.
  package static let defaultConnections = 16

  /// A fleet over the database at `address`, through at most `connections` connections (named
  /// `applicationName` in the server's views), each call waiting at most `operationTimeout`
  /// for the database.
  package init(
    address: PostgresAddress, connections: Int = defaultConnections,
    snapshotInterval: Int = EngineDefaults.snapshotInterval, operationTimeout: Duration = .seconds(10),
    applicationName: String = "navstore", logger: Logger = Logger(label: "navstore.postgres")
  ) {
    self.address = address
    self.operationTimeout = operationTimeout
    self.connections = max(1, connections)
    // The driver writes each query's bound values (session ids, a token's hash) at `trace`:
    // its lines go no lower than `debug`, whatever the collector's own level, so no level
    // shows what `info` keeps out of the log.
    var logger = logger
    if logger.logLevel < .debug { logger.logLevel = .debug }
    self.logger = logger
    self.snapshotInterval = max(1, snapshotInterval)
    self.heads = HeadStates(capacity: 4_096)
    var configuration = address.configuration(connections: connections)
    // What `pg_stat_activity` shows an operator for these connections.
    configuration.options.additionalStartupParameters = [("application_name", applicationName)]
    client = PostgresClient(configuration: configuration, backgroundLogger: logger)
  }

  /// Keeps the pool's connections until the task running it is cancelled.
  package func run() async { await client.run() }

  /// Runs `body` with a fleet over `address`, its pool running meanwhile, and closes it after.
  package static func withFleet<T>(
    address: PostgresAddress, connections: Int = defaultConnections,
    logger: Logger = Logger(label: "navstore.postgres"),
    _ body: (PostgresFleet) async throws -> T
  ) async throws -> T {
    let fleet = PostgresFleet(address: address, connections: connections, logger: logger)
    return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
      group.addTask { await fleet.run() }
      defer { group.cancelAll() }
      return try await body(fleet)
    }
  }

  /// Connects once, outside the pool, and closes: a database that refuses or cannot be reached
  /// fails this at once with what the connection said, where the pool would keep trying until
  /// a call's deadline. What a command or a collector's start asks first.
  package func probe() async throws(FleetError) {
    do {
      let connection = try await PostgresConnection.connect(
        on: PostgresClient.defaultEventLoopGroup.any(), configuration: try address.connectionConfiguration(), id: 0,
        logger: logger
      ).get()
      try await connection.close()
    } catch {
      throw fleetError(error)
    }
  }

  /// How long a call that replays a session (a verification, a report, a screen search) may
  /// take: most of its time is this process's own work on what it reads, bounded by its budget
  /// (`WorkBudget`), not the database's, so six times a plain call's deadline, where a slow
  /// debug build or a busy machine would otherwise be reported as a database that failed.
  var replayTimeout: Duration { operationTimeout * 6 }

  /// Runs database work, its failure as a `FleetError`: a store's rule as `.store`, anything the
  /// client or the server said as `.database`, worded without the query's values.
  /// Work that takes longer than `timeout` (default: `operationTimeout`) is cancelled and
  /// thrown as `.database`: a database that does not answer (stopped, unreachable, its pool's
  /// connections all failing) costs a caller that long at most, never a wait without end.
  func database<T: Sendable>(timeout: Duration? = nil, _ body: @escaping @Sendable () async throws -> T)
    async throws(FleetError) -> T
  {
    let limit = timeout ?? operationTimeout
    do {
      return try await TimeLimit.answer(within: limit, body)
    } catch {
      throw fleetError(error)
    }
  }

  /// A failure of database work as a `FleetError`: a history's rule as `.history` (whichever
  /// error type the shared code carried it in), anything the client or the server said as
  /// `.database`. What a transaction's closure threw is unwrapped from postgres-nio's
  /// transaction error, so a rule it broke reads as that rule.
  func fleetError(_ error: any Error) -> FleetError {
    switch error {
    case let error as FleetError: error
    case let error as any HistoryFailure:
      error.history.map(FleetError.history) ?? .database(address: address.description, reason: Self.reason(error))
    case let error as PostgresTransactionError:
      if let inner = error.closureError ?? error.beginError ?? error.commitError {
        fleetError(inner)
      } else {
        .database(address: address.description, reason: "the transaction failed")
      }
    default: .database(address: address.description, reason: Self.reason(error))
    }
  }

  /// One transaction: committed when `body` returns, rolled back when it throws.
  func transaction<T: Sendable>(
    timeout: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
  ) async throws(FleetError) -> T {
    let (client, logger) = (client, logger)
    return try await database(timeout: timeout) { () async throws -> T in
      try await client.withTransaction(logger: logger) { connection async throws -> T in
        try await body(connection)
      }
    }
  }

  /// What a PostgreSQL failure says, without the query's text or values: the server's message
  /// and SQLSTATE, or the client's code (a refused or closed connection).
  static func reason(_ error: any Error) -> String {
    if let timeout = error as? TimeLimit.Expired { return "no answer within \(timeout.limit)" }
    guard let error = error as? PSQLError else { return "\(error)" }
    if let message = error.serverInfo?[.message] {
      return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "unknown"))"
    }
    if let underlying = error.underlying { return "\(error.code): \(underlying)" }
    return "\(error.code)"
  }

  /// The month (UTC, as YYYYMM) that `time` falls in: the partition a new session's rows go to.
  static func month(of time: Timestamp) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let date = Date(timeIntervalSince1970: Double(time.millisecondsSince1970) / 1_000)
    let parts = calendar.dateComponents([.year, .month], from: date)
    return (parts.year ?? 1970) * 100 + (parts.month ?? 1)
  }
}

extension ByteBuffer {
  /// The buffer's readable bytes.
  var bytes: [UInt8] { Array(readableBytesView) }
}
#endif
