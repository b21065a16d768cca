import ArgumentParser
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
    let opened = try store.open(forWriting: true)
    print(try storeCall { () throws(StoreError) in try opened.schemaVersion() })
  }
}
