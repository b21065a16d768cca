import CZlib

/// gzip (RFC 1952) through the system's zlib: what an upload's body is compressed with.
package enum Gzip {
  /// What zlib refused; with a sane input and memory, never.
  package struct Failure: Error, Equatable {
    package let code: Int32
  }

  /// `bytes` compressed as one gzip member, at zlib's default level.
  package static func compress(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
    var stream = z_stream()
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
    let started = deflateInit2_(
      &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
      Int32(MemoryLayout<z_stream>.size))
    guard started == Z_OK else { throw Failure(code: started) }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
    let status: Int32 = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        stream.next_out = out.baseAddress
        stream.avail_out = UInt32(out.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { throw Failure(code: status) }
    output.removeLast(output.count - Int(stream.total_out))
    return output
  }
}
