import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// The JSON Lines reader: the same lines whatever the chunking, long lines read whole, lines
/// past the limit refused as soon as the limit is passed, and an import that meets one keeps
/// nothing of its transaction.
@Suite struct LineReaderTests {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// A reader of `bytes`, written to a file.
  func reader(_ bytes: [UInt8], chunkSize: Int = 1 << 16, limit: Int = LineReader.defaultMaximumLineLength) throws
    -> LineReader
  {
    let path = folder.path("input-\(UUID().uuidString).jsonl")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let handle = try #require(FileHandle(forReadingAtPath: path))
    return LineReader(handle: handle, chunkSize: chunkSize, maximumLineLength: limit)
  }

  func lines(of reader: LineReader) throws -> [[UInt8]] {
    var lines: [[UInt8]] = []
    while let line = try reader.next() { lines.append(Array(line)) }
    return lines
  }

  /// What the reader should return: split at `\n`, a `\r` before it dropped, no empty last line.
  func expectedLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if bytes.last == 0x0A || bytes.isEmpty { lines.removeLast() }
    return lines.enumerated().map { index, line in
      index < lines.count - 1 || bytes.last == 0x0A ? (line.last == 0x0D ? Array(line.dropLast()) : line) : line
    }
  }

  static let inputs = Generator<([UInt8], Int), Shrink.None<([UInt8], Int)>> { rng in
    let alphabet: [UInt8] = [0x0A, 0x0D, 0x61, 0x62, 0x7B, 0x20]
    let length = Int.random(in: 0...400, using: &rng)
    let bytes = (0..<length).map { _ in alphabet.randomElement(using: &rng) ?? 0x61 }
    return (bytes, Int.random(in: 1...17, using: &rng))
  }

  @Test func anyChunkingGivesTheSameLines() async throws {
    await checkProperty(count: 300, input: Self.inputs) { bytes, chunkSize in
      let read = try lines(of: reader(bytes, chunkSize: chunkSize))
      #expect(read == expectedLines(bytes), "chunk size \(chunkSize)")
    }
  }

  @Test func theDefaultLimitIsTheDocumentedOne() throws {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/null"))
    #expect(LineReader(handle: handle).maximumLineLength == LineReader.defaultMaximumLineLength)
    #expect(LineReader.defaultMaximumLineLength == 16 * 1024 * 1024)
  }

  @Test func aLongLineIsReadWholeAcrossManyChunks() throws {
    let long = [UInt8](repeating: 0x61, count: 3 << 20)
    let reader = try reader(long + [0x0A] + Array("next".utf8) + [0x0A], chunkSize: 4096)
    #expect(try reader.next().map(Array.init) == long)
    #expect(try reader.next().map(Array.init) == Array("next".utf8))
    #expect(try reader.next() == nil)
    #expect(reader.lineNumber == 2)
  }

  @Test func linesAtTheLimitPassAndOneByteMoreIsRefused() throws {
    let limit = 100
    let atLimit = [UInt8](repeating: 0x61, count: limit)
    for ending: [UInt8] in [[0x0A], [0x0D, 0x0A], []] {
      let accepted = try reader(Array("short\n".utf8) + atLimit + ending, chunkSize: 7, limit: limit)
      #expect(try lines(of: accepted) == [Array("short".utf8), atLimit], "ending \(ending)")
      let refused = try reader(Array("short\n".utf8) + atLimit + [0x62] + ending, chunkSize: 7, limit: limit)
      #expect(try refused.next().map(Array.init) == Array("short".utf8))
      #expect(throws: LineReaderError.lineTooLong(line: 2, limit: limit)) { try refused.next() }
    }
  }

  @Test func anEndlessLineIsRefusedOnceTheLimitIsPassed() throws {
    let zeros = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
    let reader = LineReader(handle: zeros, chunkSize: 1 << 16, maximumLineLength: 1 << 20)
    #expect(throws: LineReaderError.lineTooLong(line: 1, limit: 1 << 20)) { try reader.next() }
    #expect(reader.bytesRead <= (1 << 20) + (1 << 16) + 1, "read \(reader.bytesRead) bytes of an endless line")
  }

  @Test func aFileOfOnlyNewlinesIsEmptyLinesAndImportsNothing() throws {
    let newlines = [UInt8](repeating: 0x0A, count: 5_000)
    #expect(try lines(of: reader(newlines, chunkSize: 64)) == [[UInt8]](repeating: [], count: 5_000))
    let store = try SessionStore(path: folder.path("empty.sqlite"))
    let summary = try store.importJSONLines(from: reader(newlines + [0x0D, 0x0A, 0x20, 0x0A]))
    let counts: [Int] = [summary.appended, summary.alreadyStored, summary.sessions, summary.transactions]
    #expect(counts == [0, 0, 0, 1])
    #expect(try store.sessions().isEmpty)
  }

  @Test func aLineTooLongStopsTheImportAndKeepsNothingOfItsTransaction() throws {
    let store = try SessionStore(path: folder.path("long.sqlite"))
    let first = try WireFormat.canonicalString(event("s", .start(.stack(stack("R+home")))))
    let second = try WireFormat.canonicalString(event("s", .push(.string("a")), offset: 1))
    let long = "{\"session\":\"s\",\"cause\":\"" + String(repeating: "x", count: 5_000) + "\"}"
    let input = Array([first, second, long, second].joined(separator: "\n").utf8)

    #expect(throws: StoreError.unreadableInput(.lineTooLong(line: 3, limit: 1_000))) {
      try store.importJSONLines(from: reader(input, chunkSize: 512, limit: 1_000))
    }
    #expect(try store.sessions().isEmpty, "one transaction: nothing kept")

    #expect(throws: StoreError.unreadableInput(.lineTooLong(line: 3, limit: 1_000))) {
      try store.importJSONLines(from: reader(input, chunkSize: 512, limit: 1_000), batchSize: 2)
    }
    #expect(try store.history(of: sessionID("s")).count == 2, "the batch before the long line stays")
    #expect(try store.verify().allSatisfy(\.isIntact))
  }
}
