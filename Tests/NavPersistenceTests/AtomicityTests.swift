import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// A refused write leaves the database exactly as it was (compared as a full dump).
@Suite struct AtomicityTests {
  let folder: TemporaryFolder
  let path: String
  let store: SessionStore

  init() throws {
    folder = try TemporaryFolder()
    path = folder.path("a.sqlite")
    store = try SessionStore(path: path, options: StoreOptions(snapshotInterval: 2))
    try store.append(event("s", .start(.stack(stack("R+", "◻+sheet")))))
    try store.append(event("s", .push("a")))
  }

  func expectUnchanged(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let before = try tableDump(path)
    #expect(throws: StoreError.self, sourceLocation: sourceLocation) { try body() }
    #expect(try tableDump(path) == before, "the refused write changed the database", sourceLocation: sourceLocation)
  }

  @Test func aRejectedOperationWritesNothing() throws {
    try expectUnchanged { try store.append(event("s", .goBack(5))) }
    try expectUnchanged { try store.append(event("new", .push("x"))) }
    try expectUnchanged { try store.append(event("s", .start(.stack(stack("R"))))) }
  }

  /// An event the wire format cannot write (its time is past the year 9999) is refused as
  /// unencodable, naming the field, and nothing is written.
  @Test func anUnwritableEventWritesNothing() throws {
    var late = event("s", .pop())
    late.at = Timestamp(millisecondsSince1970: 253_402_300_800_000)
    try expectUnchanged { try store.append(late) }
    #expect(
      throws: StoreError.unencodable(
        WireFormatError(field: "at", message: "the time is outside the years 0000 to 9999"))
    ) {
      try store.append(late)
    }
  }

  @Test func aConflictingSeqWritesNothing() throws {
    try expectUnchanged { try store.append(event("s", .pop(), seq: 2)) }
    try expectUnchanged { try store.append(event("s", .pop(), seq: 9)) }
  }

  @Test func aBadLineInABatchKeepsNothingOfTheBatch() throws {
    let batch = [event("s", .pop()), event("t", .start(.stack(stack("R")))), event("s", .pop())]
    try expectUnchanged { try store.append(contentsOf: batch) }
    do {
      try store.append(contentsOf: batch)
    } catch let StoreError.lineFailed(line, error) {
      #expect(line == 3)
      #expect(
        error
          == .rejected(
            session: sessionID("s"), seq: 4,
            NavigationError(
              operation: "pop", path: .top, reason: .notAPush(index: 1, style: .sheet(withNavigation: true)))))
    }
  }

  @Test func aBadImportLineKeepsNothingOfTheImport() throws {
    let lines = [
      #"{"session":"s","seq":3,"at":"2026-11-21T10:00:00.000Z","op":{"op":"pop"}}"#,
      #"{"session":"t","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","screen":"a"}]}}}"#,
      "",
      #"{"session":"t","at":"2026-11-21T10:00:01.000Z","op":{"op":"push","screen":"b","withNavigation":false}}"#,
    ]
    let file = folder.path("import.jsonl")
    try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
    func importFile() throws(StoreError) {
      guard let handle = FileHandle(forReadingAtPath: file) else { return }
      try store.importJSONLines(from: LineReader(handle: handle))
    }
    try expectUnchanged { try importFile() }
    // The same lines from memory: the same refusal, at the same line, and nothing kept.
    try expectUnchanged { try store.importJSONLines(from: LinesInMemory(lines)) }
    func expectLine4Refused(_ importLines: () throws(StoreError) -> Void) {
      do {
        try importLines()
        Issue.record("the import was accepted")
      } catch {
        guard case .invalidLine(let line, let problem) = error else {
          Issue.record("unexpected error \(error)")
          return
        }
        #expect(line == 4)
        #expect(problem.field == "op.withNavigation")
      }
    }
    expectLine4Refused { () throws(StoreError) in try importFile() }
    expectLine4Refused { () throws(StoreError) in _ = try store.importJSONLines(from: LinesInMemory(lines)) }
  }

  /// Lines in memory import as a file's do.
  @Test func linesInMemoryImport() throws {
    let lines = [
      #"{"session":"m","at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","screen":"a","withNavigation":true}]}}}"#,
      "  ",
      #"{"session":"m","at":"2026-11-21T10:00:01.000Z","op":{"op":"push","screen":"b"}}"#,
    ]
    let summary = try store.importJSONLines(from: LinesInMemory(lines))
    #expect(summary.appended == 2)
    #expect(try store.state(of: sessionID("m")).state == .stack(stack("R+a", "↑b")))
  }

  @Test func aRejectedRecordingWritesNothing() throws {
    try expectUnchanged {
      try store.record(
        session: sessionID("s"), from: .stack(stack("R+")), to: .stack(stack("R+", "↑b")),
        at: Timestamp(millisecondsSince1970: 0))
    }
  }

  @Test func writingThroughAReadOnlyStoreIsRefused() throws {
    let reader = try SessionStore(path: path, options: StoreOptions(access: .readOnly))
    try expectUnchanged { try reader.append(event("s", .pop())) }
    #expect(throws: StoreError.readOnly(path: path)) { try reader.append(event("s", .pop())) }
  }
}
