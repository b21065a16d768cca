import ArgumentParser
import Foundation
import NavPersistence

/// `navstore init`: creates the store, or migrates an older one, and prints its schema version.
struct InitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "init",
    abstract: "Create or migrate a store and print its schema version.",
    discussion: """
      Examples:
        navstore init                     # navstore.sqlite in this folder
        navstore init --db sessions.sqlite
      """)

  @OptionGroup var store: StoreOption

  func run() throws {
    let path = store.resolvedPath
    let before = FileManager.default.fileExists(atPath: path) ? Self.schemaVersion(at: path) : nil
    let opened = try store.open(forWriting: true)
    let version = try storeCall { () throws(StoreError) in try opened.schemaVersion() }
    // What it did, for people, on stderr; the version, for scripts, on stdout.
    let did: String
    switch before {
    case nil, 0?: did = "created \(path) (schema \(version))"
    case version?: did = "\(path) is already at schema \(version); nothing to do"
    case let old?: did = "migrated \(path) from schema \(old) to \(version)"
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
