#if Collector
import Foundation
import NIOSSL
import PostgresNIO

/// Where a fleet's PostgreSQL database is, as `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// says it (`postgresql://` too), with `?sslmode=disable|prefer|require` (default `prefer`) and
/// `?host=/path/to/socket/folder` for a Unix socket.
///
/// A password may also come from `PGPASSWORD`, so that it is in no command line. Its text is
/// never printed: `description` leaves it out.
package struct PostgresAddress: Hashable, Sendable, CustomStringConvertible {
  /// The user to connect as.
  package var user: String
  /// The password, if one is needed.
  var password: String?
  /// The host name or address (`nil` with a socket).
  package var host: String?
  /// The port.
  package var port: Int
  /// The folder of the server's Unix socket, instead of a host.
  package var socketFolder: String?
  /// The database.
  package var database: String
  /// Whether to use TLS: `disable`, `prefer` or `require`.
  package var sslMode: String

  /// Whether `text` names a PostgreSQL database rather than a store file.
  package static func isAddress(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// The address `text` is; throws a sentence saying what is wrong with it. `environment`
  /// supplies `PGPASSWORD` when the address names no password.
  package init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(FleetError)
  {
    guard Self.isAddress(text), let url = URLComponents(string: text) else {
      throw .invalidDatabaseAddress("give postgres://USER@HOST:PORT/DATABASE")
    }
    guard let user = url.user, !user.isEmpty else {
      throw .invalidDatabaseAddress("it names no user (postgres://USER@HOST:PORT/DATABASE)")
    }
    let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
    guard !database.isEmpty, !database.contains("/") else {
      throw .invalidDatabaseAddress("it names no database (postgres://USER@HOST:PORT/DATABASE)")
    }
    var sslMode = "prefer"
    var socketFolder: String?
    for item in url.queryItems ?? [] {
      switch (item.name, item.value) {
      case ("sslmode", let value?) where ["disable", "prefer", "require"].contains(value): sslMode = value
      case ("sslmode", _): throw .invalidDatabaseAddress("sslmode is disable, prefer or require")
      case ("host", let value?) where value.hasPrefix("/"): socketFolder = value
      case ("host", _): throw .invalidDatabaseAddress("host= names the folder of a Unix socket, from /")
      default: throw .invalidDatabaseAddress("it has a parameter this client does not know: \(item.name)")
      }
    }
    let host = url.host.flatMap { $0.isEmpty ? nil : $0 }
    guard host != nil || socketFolder != nil else {
      throw .invalidDatabaseAddress("it names no host (postgres://USER@HOST:PORT/DATABASE)")
    }
    self.user = user
    self.password = url.password ?? environment["PGPASSWORD"]
    self.host = host
    self.port = url.port ?? 5432
    self.socketFolder = socketFolder
    self.database = database
    self.sslMode = sslMode
  }

  /// The address without its password: what logs and messages show.
  package var description: String {
    let place =
      if let socketFolder { "?host=\(socketFolder)" } else { "" }
    let server = host.map { "\($0.contains(":") ? "[\($0)]" : $0):\(port)" } ?? ""
    let mode = sslMode == "prefer" || socketFolder != nil ? "" : (place.isEmpty ? "?" : "&") + "sslmode=\(sslMode)"
    return "postgres://\(user)@\(server)/\(database)\(place)\(mode)"
  }

  /// One connection's configuration for this address (a probe's: see `PostgresFleet.probe`).
  func connectionConfiguration() throws -> PostgresConnection.Configuration {
    if let socketFolder {
      return PostgresConnection.Configuration(
        unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
    }
    let tls: PostgresConnection.Configuration.TLS =
      switch sslMode {
      case "disable": .disable
      case "require": .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
      default: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
      }
    var configuration = PostgresConnection.Configuration(
      host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
    configuration.options.connectTimeout = .seconds(5)
    return configuration
  }

  /// The client's configuration for this address, with at most `connections` connections.
  func configuration(connections: Int) -> PostgresClient.Configuration {
    var configuration: PostgresClient.Configuration
    if let socketFolder {
      configuration = PostgresClient.Configuration(
        unixSocketPath: socketFolder + "/.s.PGSQL.\(port)", username: user, password: password, database: database)
    } else {
      let tls: PostgresClient.Configuration.TLS =
        switch sslMode {
        case "disable": .disable
        case "require": .require(.makeClientConfiguration())
        default: .prefer(.makeClientConfiguration())
        }
      configuration = PostgresClient.Configuration(
        host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
    }
    configuration.options.maximumConnections = max(1, connections)
    configuration.options.connectTimeout = .seconds(5)
    return configuration
  }
}
#endif
