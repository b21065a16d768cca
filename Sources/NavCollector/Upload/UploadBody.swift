import Crypto
import NIOCore
import NavContract

/// An upload's body as lines, read as it streams in (inflated first when it is gzip), with the
/// contract's limits enforced while reading: a line, a request's lines and bytes, and the body
/// as sent. Past any of them the read stops at once, so a small gzip that inflates to a
/// gigabyte costs one window of memory and the work of one request's bytes, not the gigabyte's.
struct UploadBody {
  /// What stopped the read.
  enum Failure: Error, Equatable {
    case tooLarge(String)
    /// Said to be gzip, and not gzip (or not all of it).
    case notGzip(GzipInflater.Failure)
    /// The connection failed, or ended, before the whole body arrived.
    case clientWentAway
  }

  private let limits: UploadLimits
  private(set) var lines: [ArraySlice<UInt8>] = []
  private var current: [UInt8] = []
  private var total = 0

  init(limits: UploadLimits) { self.limits = limits }

  /// The most bytes a body may have as sent: the request's limit, and for gzip a 64th more for
  /// its framing (deflate adds at most a few bytes in a thousand to data it cannot shrink).
  static func wireBytes(_ limits: UploadLimits, gzip: Bool) -> Int {
    gzip ? limits.requestBytes + limits.requestBytes / 64 + 1_024 : limits.requestBytes
  }

  /// Reads `body` to its end: inflating it when `gzip`, splitting it into lines (LF or CRLF).
  /// A body shorter than its `Content-Length` (`declaredLength`) ended because the client
  /// went away, not because it was whole. Throws `CancellationError` once the task is
  /// cancelled (the request's deadline).
  /// Also returns the SHA-256 of the body as sent, which a device signs.
  static func read(
    _ body: some AsyncSequence<ByteBuffer, any Error>, gzip: Bool, limits: UploadLimits, declaredLength: Int? = nil
  ) async throws -> (lines: [ArraySlice<UInt8>], digest: [UInt8]) {
    var hasher = SHA256()
    var reader = UploadBody(limits: limits)
    let inflater: GzipInflater?
    do {
      inflater = gzip ? try GzipInflater() : nil
    } catch {
      throw Failure.notGzip(error)
    }
    let wireLimit = wireBytes(limits, gzip: gzip)
    var sent = 0
    var chunks = body.makeAsyncIterator()
    while true {
      let next: ByteBuffer?
      do {
        next = try await chunks.next()
      } catch is CancellationError {
        throw CancellationError()
      } catch {
        // The connection failed under the body: what came is not the request.
        try Task.checkCancellation()
        throw Failure.clientWentAway
      }
      guard let buffer = next else { break }
      sent += buffer.readableBytes
      buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
      guard sent <= wireLimit else { throw Failure.tooLarge("The request's body is over \(wireLimit) bytes as sent") }
      guard let inflater else {
        try reader.take(buffer.readableBytesView)
        continue
      }
      do {
        try buffer.withUnsafeReadableBytes { input in
          try inflater.inflate(input) { window in try reader.take(window) }
        }
      } catch let failure as GzipInflater.Failure {
        throw Failure.notGzip(failure)
      }
      // A long body's inflation gives the other requests their turn on the shared threads.
      await Task.yield()
    }
    // A body cut off by the deadline, or by a client that left, is not a body that ended.
    try Task.checkCancellation()
    if let declaredLength, sent != declaredLength { throw Failure.clientWentAway }
    if let inflater {
      do {
        try inflater.finish()
      } catch {
        throw Failure.notGzip(error)
      }
    }
    try reader.finish()
    return (reader.lines, Array(hasher.finalize()))
  }

  /// Takes the next bytes of the (inflated) body.
  mutating func take(_ bytes: some RandomAccessCollection<UInt8>) throws(Failure) {
    total += bytes.count
    guard total <= limits.requestBytes else {
      throw .tooLarge("The request is over \(limits.requestBytes) bytes (after decompression)")
    }
    var start = bytes.startIndex
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
      current.append(contentsOf: bytes[start..<newline])
      try endLine()
      start = bytes.index(after: newline)
    }
    current.append(contentsOf: bytes[start...])
    guard current.count <= limits.lineBytes else {
      throw .tooLarge("Line \(lines.count + 1) is over \(limits.lineBytes) bytes")
    }
  }

  /// The end of the body: a last line without a newline counts.
  mutating func finish() throws(Failure) {
    if !current.isEmpty { try endLine() }
  }

  private mutating func endLine() throws(Failure) {
    if current.last == UInt8(ascii: "\r") { current.removeLast() }
    guard current.count <= limits.lineBytes else {
      throw .tooLarge("Line \(lines.count + 1) is over \(limits.lineBytes) bytes")
    }
    lines.append(current[...])
    current = []
    guard lines.count <= limits.requestLines else {
      throw .tooLarge("The request has more than \(limits.requestLines) lines")
    }
  }
}
