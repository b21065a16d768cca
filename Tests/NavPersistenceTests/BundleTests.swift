import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// `bundle(_:to:)` takes one session and the sessions it continues off the store, for a ticket;
/// a store copied without its `-wal` is refused with an error that says so.
@Suite struct BundleTests {
  let folder: TemporaryFolder
  init() throws { folder = try TemporaryFolder() }

  /// launch-1, then launch-2 restored from it, then launch-3 restored from launch-2, and an
  /// unrelated session.
  func storeWithALineOfRestores() throws -> SessionStore {
    let store = try SessionStore(path: folder.path("app.sqlite"))
    try store.append(event("launch-1", .start(.stack(stack("R+home")))))
    try store.append(event("launch-1", .push(.string("list")), offset: 1))
    try store.append(event("other", .start(.stack(stack("R+home"))), offset: 2))
    try store.append(
      event(
        "launch-2",
        .start(.stack(stack("R+home", "↑list")), restoredFrom: SessionLink(session: sessionID("launch-1"), seq: 2)),
        offset: 3))
    try store.append(
      event(
        "launch-3",
        .start(.stack(stack("R+home", "↑list")), restoredFrom: SessionLink(session: sessionID("launch-2"), seq: 1)),
        offset: 4))
    try store.append(event("launch-3", .push(.string("detail")), offset: 5))
    return store
  }

  @Test func theBundleOfARestoredSessionCarriesItsAncestorsAndImportsIntact() async throws {
    let store = try storeWithALineOfRestores()
    let path = folder.path("ticket.jsonl")
    let written = try await store.read { try $0.bundle(sessionID("launch-3"), to: path) }
    #expect(written.map(\.rawValue) == ["launch-1", "launch-2", "launch-3"])

    let copy = try SessionStore(path: folder.path("ticket.sqlite"))
    let input = try #require(FileHandle(forReadingAtPath: path))
    let summary = try await copy.importJSONLines(from: LineReader(handle: input))
    #expect(summary.appended == 5 && summary.sessions == 3)
    #expect(try await copy.read { try $0.sessions() }.map(\.id.rawValue) == ["launch-1", "launch-2", "launch-3"])
    for session in written {
      #expect(
        try await copy.read { try $0.history(of: session) } == (try await store.read { try $0.history(of: session) }))
    }
    #expect(try await copy.read { try $0.verify() }.allSatisfy(\.isIntact))
  }

  /// The bundle's lines are the events export's JSON Lines of its sessions, oldest first, byte
  /// for byte: one session here is long enough to be written in several chunks.
  @Test func theBundleIsTheEventsExportOfItsSessions() throws {
    let store = try storeWithALineOfRestores()
    for offset in 0..<1_500 {
      let operation: NavigationOperation<JSONValue> =
        offset.isMultiple(of: 2) ? .push(.string("item \(offset)")) : .goBack()
      try store.append(event("launch-3", operation, offset: Int64(6 + offset)))
    }
    let path = folder.path("ticket.jsonl")
    let written = try store.bundle(sessionID("launch-3"), to: path)
    var exported: [UInt8] = []
    for session in written {
      try store.exportEncoded(.events, format: .jsonl, filter: ExportFilter(session: session)) { exported += $0 }
    }
    let bundled = try #require(FileManager.default.contents(atPath: path))
    #expect(bundled.count > 1 << 17, "more than two chunks")
    #expect(Array(bundled) == exported)
  }

  @Test func aForgottenAncestorEndsTheLine() throws {
    let store = try storeWithALineOfRestores()
    try store.forget([sessionID("launch-1")], at: Timestamp(millisecondsSince1970: 1_900_000_000_000))
    let written = try store.bundle(sessionID("launch-3"), to: folder.path("ticket.jsonl"))
    #expect(written.map(\.rawValue) == ["launch-2", "launch-3"])
    #expect(try store.bundle(sessionID("other"), to: folder.path("other.jsonl")).map(\.rawValue) == ["other"])
  }

  @Test func aBundleIsNeverWrittenOverAFileNorForAnUnknownSession() throws {
    let store = try storeWithALineOfRestores()
    let existing = folder.path("notes.txt")
    try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: existing))
    #expect(throws: StoreError.destinationExists(path: existing)) {
      try store.bundle(sessionID("launch-3"), to: existing)
    }
    #expect(FileManager.default.contents(atPath: existing) == Data("keep me\n".utf8))
    let path = folder.path("unknown.jsonl")
    #expect(throws: StoreError.unknownSession(sessionID("nope"))) { try store.bundle(sessionID("nope"), to: path) }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func aStoreCopiedWithoutItsWALSaysSo() throws {
    let path = folder.path("app.sqlite")
    let store = try storeWithALineOfRestores()
    // The store is open and its data sits in app.sqlite-wal: a copy of the main file alone
    // has none of it.
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    let alone = folder.path("alone.sqlite")
    try FileManager.default.copyItem(atPath: path, toPath: alone)
    for _ in 0..<2 {
      #expect(throws: StoreError.walMissing(path: alone)) {
        try SessionStore(path: alone, options: StoreOptions(access: .readOnly))
      }
      #expect(!FileManager.default.fileExists(atPath: alone + "-wal"), "the copy was left untouched")
    }
    // A write finishes what looks like a store whose creation stopped early (the file alone
    // cannot tell it from such a copy): it becomes an empty store, the original untouched.
    let written = folder.path("written.sqlite")
    try FileManager.default.copyItem(atPath: alone, toPath: written)
    #expect(try SessionStore(path: written).sessions().isEmpty)
    // With its -wal beside it, the same copy is the whole store.
    try FileManager.default.copyItem(atPath: path + "-wal", toPath: alone + "-wal")
    let whole = try SessionStore(path: alone, options: StoreOptions(access: .readOnly))
    #expect(try whole.sessions().count == (try store.sessions().count))
  }
}
