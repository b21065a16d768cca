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
    let (before, version, name) = try await store.location.initialize()
    Self.report(before: before, version: version, of: name)
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
}
