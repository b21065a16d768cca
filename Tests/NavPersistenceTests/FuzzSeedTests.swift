import Foundation
import NavPersistence
import NavTestSupport
import Testing

/// The fuzz target for store files (`Fuzz/`) starts from the seed stores in
/// `Fuzz/Corpus/store-file/`. A seed of an older schema is not opened read-only, so a schema
/// change that left the seeds behind would have the fuzzer stop at the schema check, reaching
/// none of the code it is there for (it did, once: coverage 140 instead of 4,500).
@Suite struct FuzzSeedTests {
  static let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/store-file")

  @Test(arguments: ["demo-store", "empty-store"])
  func theSeedStoreIsAtTheLatestSchemaAndVerifies(name: String) throws {
    let folder = try TemporaryFolder()
    let copy = folder.path(name)
    try FileManager.default.copyItem(atPath: Self.seeds.appendingPathComponent(name).path, toPath: copy)
    let store = try SessionStore(path: copy, options: StoreOptions(access: .readOnly))
    #expect(
      try store.schemaVersion() == SessionStore.latestSchemaVersion,
      "make the seed again (Fuzz/make-corpus.py says how)")
    #expect(try store.verify().allSatisfy(\.isIntact))
    #expect(try store.sessions().count == (name == "demo-store" ? 8 : 0))
  }

  @Test func theOlderSeedMigrates() throws {
    let folder = try TemporaryFolder()
    let copy = folder.path("old")
    try FileManager.default.copyItem(
      atPath: Self.seeds.appendingPathComponent("demo-store-schema-4").path, toPath: copy)
    do {
      let version = try SQLiteConnection(path: copy, mode: .readOnly).statement("PRAGMA user_version")
      #expect(try version.step() && version.int(0) == 4, "the older seed is the demo store of schema 4")
    }
    #expect(throws: StoreError.self) { try SessionStore(path: copy, options: StoreOptions(access: .readOnly)) }
    let store = try SessionStore(path: copy)
    #expect(try store.schemaVersion() == SessionStore.latestSchemaVersion)
    #expect(try store.verify().allSatisfy(\.isIntact) && store.sessions().count == 8)
  }
}
