import CompressNIO
import NIOCore

/// An upload's body as lines, read as it streams in (inflated first when it is gzip), with the
/// contract's limits enforced while reading: a line, a request's lines and bytes. Past any of
/// them the read stops at once, so a small gzip that inflates to a gigabyte costs one window
/// of memory, not the gigabyte.
struct UploadBody {
  /// What stopped the read.
  enum Failure: Error {
    case tooLarge(String)
    case notGzip
  }

  private let limits: UploadLimits
  private(set) var lines: [ArraySlice<UInt8>] = []
  private var current: [UInt8] = []
  private var total = 0

  init(limits: UploadLimits) { self.limits = limits }

  /// Reads `body` to its end: inflating it when `gzip`, splitting it into lines (LF or CRLF).
  static func read(
    _ body: some AsyncSequence<ByteBuffer, any Error>, gzip: Bool, limits: UploadLimits
  ) async throws -> [ArraySlice<UInt8>] {
    var reader = UploadBody(limits: limits)
    if gzip {
      let decompressor = CompressionAlgorithm.gzip().decompressor
      decompressor.window = ByteBufferAllocator().buffer(capacity: 64 * 1024)
      do {
        try decompressor.startStream()
      } catch {
        throw Failure.notGzip
      }
      for try await var buffer in body {
        do {
          try buffer.decompressStream(with: decompressor) { window in try reader.take(window.readableBytesView) }
        } catch let failure as Failure {
          throw failure
        } catch {
          throw Failure.notGzip
        }
      }
      do {
        try decompressor.finishStream()
      } catch {
        throw Failure.notGzip
      }
    } else {
      for try await buffer in body { try reader.take(buffer.readableBytesView) }
    }
    try reader.finish()
    return reader.lines
  }

  /// Takes the next bytes of the (inflated) body.
  mutating func take(_ bytes: ByteBufferView) throws(Failure) {
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
