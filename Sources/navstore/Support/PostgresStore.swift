import ArgumentParser
import Foundation
import Logging
import NavCore
import NavFleet
import NavPersistence

/// `--db-connections`: the pool's size for a PostgreSQL store.
struct PostgresPoolOption: ParsableArguments {
  @Option(
    name: .customLong("db-connections"),
    help:
      "With --db postgres://...: the most connections to the database (default: 16); serve keeps two pools of this size, one for uploads and tokens, one for reads."
  )
  var connections: Int = PostgresFleet.defaultConnections

  func validate() throws {
    guard (1...1_000).contains(connections) else {
      throw ValidationError("--db-connections must be 1 to 1000, not \(connections)")
    }
  }
}

enum PostgresStore {
  /// What a command needs of the database's schema before it runs.
  enum Schema {
    /// Nothing (`init` looks at it itself).
    case asItIs
    /// This build's already.
    case current
  }

  /// What a command needs of the app it names.
  enum App {
    /// The app must exist (a command that reads, or forgets).
    case existing(AppName)
    /// The app is made when it is new (a command that writes sessions).
    case made(AppName)
  }

  /// Runs `body` with the fleet at `address`, its schema as `schema` says and `app` as it says;
  /// the pool closes after.
  static func with<T>(
    _ address: PostgresAddress, connections: Int = 4, schema: Schema, app: App? = nil,
    _ body: (PostgresFleet) async throws -> T
  ) async throws -> T {
    // The pool's own lines (a connection refused, say) are the command's error, said once.
    var quiet = Logger(label: "navstore.postgres")
    quiet.logLevel = .critical
    return try await PostgresFleet.withFleet(address: address, connections: connections, logger: quiet) { fleet in
      try await fleetCall { () async throws(FleetError) in
        try await fleet.probe()
        switch schema {
        case .asItIs: break
        case .current: try await fleet.requireSchema()
        }
        switch app {
        case .existing(let name)?: try await fleet.requireApp(name)
        case .made(let name)?: try await fleet.createApp(name)
        case nil: break
        }
      }
      return try await body(fleet)
    }
  }
}

extension StoreOption {
  /// The app `--app` names, `default` unless it names one.
  var appName: AppName { app ?? .default }

  /// The session's state after `seq` (default: its last event), from the store `--db` names,
  /// a file or a PostgreSQL database.
  func state(of session: SessionID, at seq: Int?) async throws -> SessionState {
    try await withSessions { sessions in try await sessions.state(of: session, at: seq) }
  }

}

/// Runs a PostgreSQL store's call whose failures are a `FleetError` or the caller's own (a
/// sink's), turning the store's into the CLI's one line.
func postgresCall<T>(_ body: () async throws -> T) async throws -> T {
  do {
    return try await body()
  } catch let error as FleetError {
    throw CLIError(error.terminalMessage)
  }
}

/// Runs an asynchronous call on the collector's store, turning its error into the CLI's one line.
func fleetCall<T>(_ body: () async throws(FleetError) -> T) async throws(CLIError) -> T {
  do {
    return try await body()
  } catch {
    throw CLIError(error.terminalMessage)
  }
}
