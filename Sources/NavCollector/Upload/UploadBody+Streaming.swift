import Crypto
import NIOCore
import NavContract
import NavIngest

extension UploadBody {
  /// Reads `body` to its end: inflating it when `gzip`, splitting it into lines (LF or CRLF).
  /// A body shorter than its `Content-Length` (`declaredLength`) ended because the client
  /// went away, not because it was whole. Throws `CancellationError` once the task is
  /// cancelled (the request's deadline).
  /// Also returns the SHA-256 of the body as sent, which a device signs. Counts the bytes as
  /// they come into `progress`, which holds the body to its pace.
  static func read(
    _ body: some AsyncSequence<ByteBuffer, any Error>, gzip: Bool, limits: UploadLimits, declaredLength: Int? = nil,
    progress: BodyPace.Progress? = nil
  ) async throws -> (lines: [ArraySlice<UInt8>], digest: [UInt8]) {
    var hasher = SHA256()
    var reader = try UploadBody(limits: limits, gzip: gzip)
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
      progress?.add(buffer.readableBytes)
      buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
      guard sent <= wireLimit else { throw Failure.tooLarge("The request's body is over \(wireLimit) bytes as sent") }
      try buffer.withUnsafeReadableBytes { try reader.take($0) }
      // A long body's inflation gives the other requests their turn on the shared threads.
      if gzip { await Task.yield() }
    }
    // A body cut off by the deadline, or by a client that left, is not a body that ended.
    try Task.checkCancellation()
    if let declaredLength, sent != declaredLength { throw Failure.clientWentAway }
    return (try reader.finish(), Array(hasher.finalize()))
  }
}
