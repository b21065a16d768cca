import ArgumentParser
import Foundation
import NavCore
import NavFleet
import NavPersistence

/// `--db PATH`: the option, else `$NAVSTORE_DB`, else `navstore.sqlite` in the current folder.
/// What the commands about the whole store (tokens) take; the others take `StoreOption`.
struct StoreLocation: ParsableArguments {
  @Option(name: .customLong("db"), help: "The store file (default: $NAVSTORE_DB, else navstore.sqlite).")
  var path: String?

  /// The file the command uses.
  var resolvedPath: String {
    path ?? ProcessInfo.processInfo.environment["NAVSTORE_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "navstore.sqlite"
  }
}

/// `--db PATH` and `--app NAME`, shared by every command that touches sessions: the store file,
/// and the app whose sessions it reads or writes in a store that holds several (`default`, the
/// store file's own sessions, unless named).
struct StoreOption: ParsableArguments {
  @OptionGroup var location: StoreLocation

  @Option(
    help: "The app whose sessions to use, in a store that holds several (default: default).",
    transform: appArgument)
  var app: AppName?

  /// The file the command names (the default app's; another app's sessions are in a file beside it).
  var resolvedPath: String { location.resolvedPath }

  /// Opens the store for reading (it must exist) or writing (created when missing), at the app
  /// `--app` names. A command that works on store files only gives the sentence that says what
  /// to do on PostgreSQL instead (`elsewhere`), which a PostgreSQL address is refused with.
  func open(forWriting: Bool, onPostgreSQL elsewhere: String? = nil) throws(CLIError) -> SessionStore {
    if let elsewhere { try location.requireFile(elsewhere: elsewhere) }
    guard let app, !app.isDefault else { return try Self.open(path: resolvedPath, forWriting: forWriting) }
    let fleet = try Self.openFleet(path: resolvedPath, forWriting: forWriting)
    return try fleetCall { () throws(FleetError) in try fleet.store(of: app) }
  }

  /// Opens the collector's store whose main file is at `path`, for reading (it must exist) or
  /// writing (created when missing): its apps and tokens.
  static func openFleet(path: String, forWriting: Bool) throws(CLIError) -> SQLiteFleet {
    try checkPath(path)
    do {
      return try SQLiteFleet(path: path, options: StoreOptions(access: forWriting ? .readWrite : .readOnly))
    } catch {
      throw CLIError(error.terminalMessage)
    }
  }

  /// Opens the store at `path` for reading (it must exist) or writing (created when missing).
  static func open(
    path: String, forWriting: Bool, snapshotInterval: Int = StoreOptions.defaultSnapshotInterval
  ) throws(CLIError) -> SessionStore {
    try checkPath(path)
    do {
      // Through the collector's opening, which first moves a collector's tokens out of tables
      // the store's schema no longer has: any file this command is given may be a collector's.
      return try SQLiteFleet.openStore(
        path: path,
        options: StoreOptions(snapshotInterval: snapshotInterval, access: forWriting ? .readWrite : .readOnly))
    } catch {
      throw CLIError(error.terminalMessage)
    }
  }
}

/// Refuses a store path that is empty or a folder.
private func checkPath(_ path: String) throws(CLIError) {
  guard !path.isEmpty else { throw CLIError("--db: the store path is empty") }
  var isDirectory: ObjCBool = false
  if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
    throw CLIError("'\(path)' is a folder; give --db the path of a store file inside it")
  }
}

/// An app name argument, read once by the argument parser.
func appArgument(_ text: String) throws -> AppName {
  do {
    return try AppName(text)
  } catch {
    throw ValidationError(error.description)
  }
}

/// A session id argument, read once by the argument parser: a bad one is refused before the
/// command runs, with the parser naming the argument and the id saying what is wrong.
func sessionArgument(_ text: String) throws -> SessionID {
  do {
    return try SessionID(text)
  } catch {
    throw ValidationError(error.description)
  }
}

/// A time argument (`--at`, `--since`, `--until`), read once by the argument parser: a date
/// (that day's midnight, UTC), or a date and time to the minute, second or fraction, in UTC
/// unless it names an offset (`Timestamp(query:)`).
func timeArgument(_ text: String) throws -> Timestamp {
  do {
    return try Timestamp(query: text)
  } catch {
    throw ValidationError(error.description)
  }
}

/// A span of time as a person writes one: a whole number of days, hours or minutes (`90d`,
/// `12h`, `30m`).
func spanArgument(_ text: String) throws -> Duration {
  guard let unit = text.last, let count = Int64(text.dropLast()), count > 0, count <= 36_500 * 24 * 60 else {
    throw ValidationError("'\(text)' is not a span: give a number and d, h or m, like 90d, 12h or 30m")
  }
  switch unit {
  case "d": return .seconds(count * 86_400)
  case "h": return .seconds(count * 3_600)
  case "m": return .seconds(count * 60)
  default: throw ValidationError("'\(text)' is not a span: give a number and d, h or m, like 90d, 12h or 30m")
  }
}

/// Runs a store call, turning its error into the CLI's one line.
func storeCall<T>(_ body: () throws(StoreError) -> T) throws(CLIError) -> T {
  do {
    return try body()
  } catch {
    throw CLIError(error.terminalMessage)
  }
}

/// Runs a call on the collector's store, turning its error into the CLI's one line.
func fleetCall<T>(_ body: () throws(FleetError) -> T) throws(CLIError) -> T {
  do {
    return try body()
  } catch {
    throw CLIError(error.terminalMessage)
  }
}

/// The current time, for events recorded from the command line without `--at`.
func now() -> Timestamp {
  Timestamp.now
}
