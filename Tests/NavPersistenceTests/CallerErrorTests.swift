import Foundation
import NavCore
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

@_spi(Internals) @testable import NavPersistence

/// What a caller's own closure throws comes back as itself (inside `.caller`), never as a
/// database error; and SQLite's disk I/O failures read as a sentence about the disk.
@Suite struct CallerErrorTests {
  struct SinkFull: Error, Hashable {}

  /// `body` must throw `.caller` holding exactly a `SinkFull`.
  func expectSinkFull(_ what: String, _ body: () throws(StoreError) -> Void) {
    do {
      try body()
      Issue.record("\(what): nothing was thrown")
    } catch {
      guard case .caller(let caller) = error else {
        Issue.record("\(what): \(error) is not the caller's error")
        return
      }
      #expect(caller.error is SinkFull, "\(what)")
      #expect(error == .caller(CallerError(SinkFull())))
    }
  }

  @Test func everyClosureOfTheStorePassesItsErrorThrough() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("c.sqlite"))
    try store.append(event("s", .start(.stack(stack("R+home")))))
    try store.append(event("s", .push(.string("a"))))
    expectSinkFull("export") { () throws(StoreError) in _ = try store.export(.events) { _ in throw SinkFull() } }
    for table in ExportTable.allCases {
      for format in ExportFormat.allCases {
        expectSinkFull("exportEncoded \(table) \(format)") { () throws(StoreError) in
          _ = try store.exportEncoded(table, format: format) { _ in throw SinkFull() }
        }
      }
    }
    expectSinkFull("replayHistory") { () throws(StoreError) in
      try store.replayHistory(of: sessionID("s")) { _, _ in throw SinkFull() }
    }
    expectSinkFull("forEachSession") { () throws(StoreError) in try store.forEachSession { _ in throw SinkFull() } }
    expectSinkFull("verify") { () throws(StoreError) in try store.verify(nil) { _ in throw SinkFull() } }
  }

  @Test func aStoreErrorThrownByACallerStaysTheCallers() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("c.sqlite"))
    let other = try SessionStore(path: folder.path("other.sqlite"))
    try store.append(event("s", .start(.stack(stack("R+home")))))
    #expect(throws: StoreError.caller(CallerError(StoreError.unknownSession(sessionID("x"))))) {
      try store.forEachSession { _ in _ = try other.state(of: sessionID("x")) }
    }
  }

  @Test func diskIOErrorsSayWhatTheDiskDid() {
    let fsync = StoreError.from(
      SQLiteError(extendedCode: 1034, message: "disk I/O error", sql: "COMMIT"), path: "/data/nav.sqlite")
    #expect(
      fsync.description
        == "the disk failed while syncing to disk '/data/nav.sqlite' (SQLite error 1034); nothing of the transaction was kept"
    )
    #expect(!fsync.description.contains("\n"))
    let read = StoreError.from(SQLiteError(extendedCode: 266, message: "disk I/O error"), path: "s.sqlite")
    #expect(read.description.hasPrefix("the disk failed while reading 's.sqlite'"))
  }
}
