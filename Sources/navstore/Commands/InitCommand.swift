import ArgumentParser
import Foundation
import NavFleet
import NavPersistence

/// `navstore init`: creates the store, or migrates an older one, and prints its schema version.
struct InitCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Create or migrate a store and print its schema version.",
    discussion: """
      Examples:
        navstore init                     # navstore.sqlite in this folder
        navstore init --db sessions.sqlite
        navstore init --db postgres://navstore@localhost:5432/fleet   # a fleet's PostgreSQL database
      """)

  @OptionGroup var store: StoreOption

  func run() async throws {
    if let address = try store.location.postgresAddress() {
      let (before, after) = try await PostgresStore.with(address, schema: .asItIs) { fleet in
        try await fleetCall { () async throws(FleetError) in
          (try await fleet.schemaVersion(), try await fleet.migrate())
        }
      }
      Self.report(before: before, version: after, of: address.description)
      return
    }
    let path = store.resolvedPath
    let before = FileManager.default.fileExists(atPath: path) ? Self.schemaVersion(at: path) : nil
    let opened = try store.open(forWriting: true)
    let version = try storeCall { () throws(StoreError) in try opened.schemaVersion() }
    Self.report(before: before, version: version, of: path)
  }

  /// What it did, for people, on stderr; the version, for scripts, on stdout.
  private static func report(before: Int?, version: Int, of store: String) {
    let did: String
    switch before {
    case nil, 0?: did = "created \(store) (schema \(version))"
    case version?: did = "\(store) is already at schema \(version); nothing to do"
    case let old?: did = "migrated \(store) from schema \(old) to \(version)"
    }
    FileHandle.standardError.write(Data("navstore: \(did)\n".utf8))
    print(version)
  }

  /// The schema version of an existing file, read without migrating it (0 for an empty one).
  private static func schemaVersion(at path: String) -> Int? {
    guard let connection = try? SQLiteConnection(path: path, mode: .readOnly) else { return nil }
    return (try? connection.integer("PRAGMA user_version")).flatMap { $0.map(Int.init) } ?? 0
  }
}
