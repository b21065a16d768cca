import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import Testing

/// `backup(to:)` takes the whole store off as one file while the store stays in use, and never
/// writes over anything.
@Suite struct BackupTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  @Test func aBackupIsOneFileThatOpensAndVerifiesWhileTheStoreIsInUse() async throws {
    let store = try SessionStore(path: folder.path("app.sqlite"))
    for index in 0..<20 {
      try await store.write { try $0.append(event("s-\(index)", .start(.stack(stack("R+home"))))) }
      try await store.write { try $0.append(event("s-\(index)", .push(.string("detail\(index)")), offset: 1)) }
    }
    // Appends go on beside the backup; the copy holds the store as it stood at one moment.
    let writer = Task {
      for index in 20..<200 {
        try await store.write { try $0.append(event("s-\(index)", .start(.stack(stack("R+home"))))) }
      }
    }
    let copyPath = folder.path("ticket.sqlite")
    try await store.backup(to: copyPath)
    try await writer.value

    #expect(FileManager.default.fileExists(atPath: copyPath))
    #expect(!FileManager.default.fileExists(atPath: copyPath + "-wal"), "the copy is one file")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("")).filter {
      $0.contains(".partial-")
    }
    #expect(leftovers.isEmpty)
    let copy = try SessionStore(path: copyPath, options: StoreOptions(access: .readOnly))
    let sessions = try await copy.read { try $0.sessions() }
    #expect(sessions.count >= 20 && sessions.count <= 200)
    #expect(try await copy.read { try $0.verify() }.allSatisfy(\.isIntact))
    for session in sessions {
      let copied = try await copy.read { try $0.history(of: session.id) }
      let original = try await store.read { try $0.history(of: session.id, to: session.eventCount) }
      #expect(copied == original)
    }
  }

  @Test func anExistingFileIsNeverWrittenOver() throws {
    let store = try SessionStore(path: folder.path("app.sqlite"))
    try store.append(event("s", .start(.stack(stack("R+home")))))
    let existing = folder.path("notes.txt")
    try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: existing))
    #expect(throws: StoreError.destinationExists(path: existing)) { try store.backup(to: existing) }
    #expect(bytes(existing) == Data("keep me\n".utf8))
    let missingFolder = folder.path("nowhere/copy.sqlite")
    #expect(throws: StoreError.folderMissing(path: missingFolder)) { try store.backup(to: missingFolder) }
    #expect(!FileManager.default.fileExists(atPath: folder.path("nowhere")))
  }

  @Test func aReadOnlyStoreBacksUpToo() throws {
    let path = folder.path("app.sqlite")
    do {
      let store = try SessionStore(path: path)
      try store.append(event("s", .start(.stack(stack("R+home")))))
    }
    let readOnly = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    try readOnly.backup(to: folder.path("copy.sqlite"))
    let copy = try SessionStore(path: folder.path("copy.sqlite"), options: StoreOptions(access: .readOnly))
    #expect(try copy.history(of: sessionID("s")).count == 1)
  }
}
