import NIOCore
import NavContract
import NavIngest
import NavTestSupport
import NavUpload
import PropertyBased
import Testing

@testable import NavCollector

/// An upload's body read as it streams in: gzip members one after another read as one body
/// whatever the chunking, and every other shape (bytes after a member, a member cut short, no
/// member at all) refused; limits on the body as sent; a cancelled read stops.
@Suite struct UploadBodyTests {
  static let limits = UploadLimits(lineBytes: 1_000, requestLines: 1_000, requestBytes: 64 * 1024)

  /// `bytes` as a stream of chunks of at most `chunk` bytes.
  static func stream(_ bytes: [UInt8], chunk: Int) -> AsyncThrowingStream<ByteBuffer, any Error> {
    AsyncThrowingStream { continuation in
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + chunk)
        continuation.yield(ByteBuffer(bytes: bytes[start..<end]))
        start = end
      }
      continuation.finish()
    }
  }

  static func read(_ bytes: [UInt8], gzip: Bool = true, chunk: Int = 1 << 16, limits: UploadLimits = limits)
    async throws -> [[UInt8]]
  {
    try await UploadBody.read(stream(bytes, chunk: chunk), gzip: gzip, limits: limits).lines.map(Array.init)
  }

  /// Lines of a few bytes, some of them empty, with LF or CRLF endings.
  static let bodies = Generator<([UInt8], [Int], Int), Shrink.None<([UInt8], [Int], Int)>> { rng in
    let alphabet: [UInt8] = [0x0A, 0x0D, 0x61, 0x62, 0x7B, 0x20, 0xC3, 0xA9]
    let length = Int.random(in: 0...600, using: &rng)
    let bytes = (0..<length).map { _ in alphabet.randomElement(using: &rng) ?? 0x61 }
    // Where the body is cut into members: none, or a few places (an empty member included).
    let cuts = (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 0...length, using: &rng) }.sorted()
    return (bytes, cuts, Int.random(in: 1...37, using: &rng))
  }

  /// `bytes` as one gzip member per piece between `cuts`.
  static func members(_ bytes: [UInt8], cuts: [Int]) throws -> [UInt8] {
    var gzip: [UInt8] = []
    var start = 0
    for end in cuts + [bytes.count] {
      gzip += try Gzip.compress(Array(bytes[start..<end]))
      start = end
    }
    return gzip
  }

  @Test func membersOneAfterAnotherReadAsTheWholeBodyWhateverTheChunking() async throws {
    await checkProperty(count: 200, input: Self.bodies) { bytes, cuts, chunk in
      let plain = try await Self.read(bytes, gzip: false, chunk: chunk)
      let inflated = try await Self.read(try Self.members(bytes, cuts: cuts), chunk: chunk)
      #expect(inflated == plain, "\(cuts.count + 1) members, chunks of \(chunk)")
    }
  }

  @Test func bytesAfterAMemberThatBeginNoMemberAreRefused() async throws {
    let trailers = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in
      // Anything but the first byte of a gzip header (0x1f) to start with.
      let first = UInt8.random(in: 0x20...0xFF, using: &rng)
      return [first] + (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }
    let valid = try Gzip.compress(Array("{\"a\":1}\n".utf8))
    await checkProperty(count: 200, input: trailers, Gen.int(in: 1...16)) { trailer, chunk in
      // One byte is not yet a header that zlib can refuse: the body ends inside one instead.
      let expected: GzipInflater.Failure = trailer.count == 1 ? .truncated : .malformed
      await #expect(throws: UploadBody.Failure.notGzip(expected)) {
        try await Self.read(valid + trailer, chunk: chunk)
      }
    }
    // The shapes seen in the wild: eight zero bytes, a newline, a second member's first bytes alone.
    await #expect(throws: UploadBody.Failure.notGzip(.malformed)) {
      try await Self.read(valid + [UInt8](repeating: 0, count: 8))
    }
    await #expect(throws: UploadBody.Failure.notGzip(.malformed)) { try await Self.read(valid + [0x0A, 0x0A]) }
    await #expect(throws: UploadBody.Failure.notGzip(.truncated)) { try await Self.read(valid + [0x1F, 0x8B]) }
  }

  @Test func aMemberCutShortIsRefusedWhereverItIsCut() async throws {
    let whole = try Gzip.compress(Array(String(repeating: "{\"line\":\"abc\"}\n", count: 40).utf8))
    for end in 0..<whole.count {
      await #expect(throws: UploadBody.Failure.notGzip(.truncated), "cut at \(end) of \(whole.count)") {
        try await Self.read(Array(whole[..<end]), chunk: 5)
      }
    }
    #expect(try await Self.read(whole).count == 40)
  }

  @Test func aCorruptedMemberIsRefused() async throws {
    let whole = try Gzip.compress(Array(String(repeating: "{\"line\":\"abc\"}\n", count: 40).utf8))
    // The last 8 bytes are the CRC-32 and the length: a flipped bit in either is a checksum
    // failure, not a body read in part.
    for index in whole.count - 8..<whole.count {
      var corrupted = whole
      corrupted[index] ^= 0x01
      await #expect(throws: UploadBody.Failure.notGzip(.malformed), "bit flipped at \(index)") {
        try await Self.read(corrupted)
      }
    }
  }

  @Test func endlessEmptyMembersStopAtTheLimitOnTheBodyAsSent() async throws {
    // Each empty member inflates to nothing: only the limit on the bytes as sent stops them.
    let empty = try Gzip.compress([])
    let count = UploadBody.wireBytes(Self.limits, gzip: true) / empty.count + 1
    let body = (0..<count).flatMap { _ in empty }
    await #expect(throws: UploadBody.Failure.self) { try await Self.read(body, chunk: 4_096) }
    do {
      _ = try await Self.read(body, chunk: 4_096)
    } catch UploadBody.Failure.tooLarge(let what) {
      #expect(what.contains("as sent"), "\(what)")
    }
    // Under it, they are one empty body.
    #expect(try await Self.read(Array(body.prefix(empty.count * 100))) == [])
  }

  @Test func aCancelledReadStopsBeforeTheEndOfTheBody() async throws {
    let (chunks, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
    let member = try Gzip.compress(Array("{\"a\":1}\n".utf8))
    // A body that never ends: the read must stop because it was cancelled, not because the body did.
    let reading = Task { try await UploadBody.read(chunks, gzip: true, limits: Self.limits).lines }
    continuation.yield(ByteBuffer(bytes: member))
    reading.cancel()
    await #expect(throws: CancellationError.self) { _ = try await reading.value }
  }
}
