import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// Files a store cannot use: one clear error each, and the file is not modified.
@Suite struct BadFileTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func aNewerSchemaIsRefusedUntouched() throws {
    let path = folder.path("newer.sqlite")
    _ = try SessionStore(path: path)
    try SQLiteConnection(path: path, mode: .readWrite(create: false)).execute("PRAGMA user_version = 99")
    let before = bytes(path)
    let supported = SessionStore.latestSchemaVersion
    #expect(throws: StoreError.newerSchema(path: path, found: 99, supported: supported)) {
      try SessionStore(path: path)
    }
    #expect(throws: StoreError.newerSchema(path: path, found: 99, supported: supported)) {
      try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    }
    #expect(bytes(path) == before)
    #expect(
      StoreError.newerSchema(path: path, found: 99, supported: supported).description.contains(
        "written by a newer NavStore (schema 99"))
  }

  @Test func aFileThatIsNotADatabase() throws {
    let path = folder.path("notes.txt")
    let text = Data(String(repeating: "not a database, just some notes\n", count: 200).utf8)
    try text.write(to: URL(fileURLWithPath: path))
    #expect(throws: StoreError.notADatabase(path: path)) { try SessionStore(path: path) }
    #expect(throws: StoreError.notADatabase(path: path)) {
      try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    }
    #expect(bytes(path) == text)
  }

  @Test func anotherApplicationsDatabase() throws {
    let path = folder.path("other.sqlite")
    try SQLiteConnection(path: path, mode: .readWrite(create: true)).execute("CREATE TABLE contacts (name TEXT)")
    let before = bytes(path)
    #expect(throws: StoreError.notAStore(path: path)) { try SessionStore(path: path) }
    #expect(bytes(path) == before)
  }

  @Test func aMissingStoreForReadingAndAMissingFolder() throws {
    let missing = folder.path("absent.sqlite")
    #expect(throws: StoreError.storeMissing(path: missing)) {
      try SessionStore(path: missing, options: StoreOptions(access: .readOnly))
    }
    #expect(!FileManager.default.fileExists(atPath: missing))
    let nowhere = folder.path("no/such/folder/s.sqlite")
    #expect(throws: StoreError.folderMissing(path: nowhere)) { try SessionStore(path: nowhere) }
  }

  @Test func aReadOnlyFileCanBeReadButNotWritten() throws {
    let path = folder.path("immutable.sqlite")
    do {
      let store = try SessionStore(path: path)
      try store.append(event("s", .start(.stack(stack("R+")))))
    }
    // Root ignores permission bits, so make the file immutable instead.
    try #require(chattr("+i", path), "this test needs chattr (e2fsprogs) on a file system that supports it")
    defer { _ = chattr("-i", path) }
    let before = bytes(path)
    #expect(throws: StoreError.readOnly(path: path)) { try SessionStore(path: path) }
    let reader = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    #expect(try reader.history(of: sessionID("s")).count == 1)
    #expect(bytes(path) == before)
  }

  private func chattr(_ flag: String, _ path: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["chattr", flag, path]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  @Test func anOlderStoreOpenedReadOnlyAsksForInit() throws {
    let path = folder.path("empty.sqlite")
    try SQLiteConnection(path: path, mode: .readWrite(create: true)).execute("PRAGMA user_version = 0")
    #expect(throws: StoreError.notAStore(path: path)) {
      try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    }
    // A writer makes an empty database a store.
    #expect(try SessionStore(path: path).schemaVersion() == SessionStore.latestSchemaVersion)
  }
}

/// A full disk (forced with a page cap): a clear error, nothing half-written, the store still
/// verifies, and appends work again once there is space.
@Suite struct DiskFullTests {
  @Test func aFullStoreRefusesCleanlyAndRecovers() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("full.sqlite")
    do {
      let store = try SessionStore(path: path)
      try store.append(event("s", .start(.stack(stack("R+")))))
    }
    let pages = try SQLiteConnection(path: path, mode: .readOnly).integer("PRAGMA page_count") ?? 0
    let capped = try SessionStore(path: path, options: StoreOptions(maximumPageCount: Int(pages) + 2))
    var appended = 0
    var failure: StoreError?
    let big = JSONValue.string(String(repeating: "x", count: 2_000))
    for index in 0..<200 {
      do {
        try capped.append(event("s", .presentSheet(["page": big, "index": .number(Double(index))])))
        appended += 1
      } catch {
        failure = error
        break
      }
    }
    guard case .diskFull(let sqliteError)? = failure else {
      Issue.record("expected a disk-full error, got \(String(describing: failure))")
      return
    }
    #expect(sqliteError.isFull)
    #expect(failure?.description.hasPrefix("the disk or the store is full; nothing was written") == true)
    let before = try tableDump(path)
    #expect(throws: StoreError.self) { try capped.append(event("s", .presentSheet(["page": big]))) }
    #expect(try tableDump(path) == before, "a failed append changed the store")
    #expect(try capped.verify().allSatisfy(\.isIntact))
    #expect(try capped.history(of: sessionID("s")).count == appended + 1)
    // With room again, appends go on from where they stopped.
    let roomy = try SessionStore(path: path)
    let next = try roomy.append(event("s", .dismiss()))
    #expect(next.event.seq == appended + 2)
    #expect(try roomy.verify().allSatisfy(\.isIntact))
  }
}

/// A store file cut short (a copy interrupted, a damaged disk): one clear error, file untouched.
@Suite struct TruncatedFileTests {
  @Test func aTruncatedStoreIsRefusedUntouched() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("cut.sqlite")
    do {
      let store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: 5))
      try store.append(event("s", .start(.stack(stack("R+")))))
      for index in 0..<300 {
        try store.append(
          event("s", .presentSheet(["page": .string(String(repeating: "p", count: 200)), "i": .number(Double(index))])))
      }
    }
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    let cut = whole.prefix(whole.count / 3)
    try cut.write(to: URL(fileURLWithPath: path))
    let outcome: String
    do {
      let store = try SessionStore(path: path)
      let results = try store.verify()
      outcome =
        results.allSatisfy(\.isIntact)
        ? "verified" : "failure: \(results.compactMap(\.failure).first?.description ?? "")"
    } catch {
      outcome = "error: \(error)"
    }
    #expect(outcome != "verified", "a store missing two thirds of its pages verified")
    #expect(outcome == "error: \(StoreError.damaged(path: path))", "\(outcome)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == cut, "the damaged file was modified")
  }
}
