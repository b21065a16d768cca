import CZlib

/// Inflates a gzip body (RFC 1952) through the system's zlib as it arrives, one window of output
/// at a time, in work bounded by what it is given.
///
/// A gzip file is a series of members (RFC 1952, 2.2), so members one after another are
/// inflated in turn, as `gunzip` does. Whatever follows a member must begin another one: bytes
/// that do not (trailing zeros, garbage) are `malformed`, and a member cut short is
/// `truncated`, so a body is either read whole or refused, never read in part. Every call to
/// zlib consumes input or produces output, and the caller is told each window before the next
/// is made: a body cannot make it spin, and a limit on what the caller takes stops it at once.
package final class GzipInflater {
  /// Why a body is not gzip.
  package enum Failure: Error, Equatable {
    /// Not a gzip member where one must begin, or a member whose data zlib refuses.
    case malformed
    /// The body ended inside a member, or held none.
    case truncated
  }

  /// zlib's state, at an address that never moves (zlib keeps a pointer back to it).
  private let stream: UnsafeMutablePointer<z_stream>
  /// Where each window is inflated: never zeroed (zlib writes what is read of it), since an
  /// upload of a few kilobytes paid more to zero 64 KiB than to inflate itself.
  private let window: UnsafeMutableRawBufferPointer
  /// A member has begun and not yet ended.
  private var insideMember = false
  /// Members inflated to their end.
  private(set) var members = 0

  /// An inflater handing out at most `windowBytes` at a time.
  package init(windowBytes: Int = 64 * 1024) throws(Failure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    window = .allocate(byteCount: max(1, windowBytes), alignment: 16)
    // windowBits 15 + 16: gzip's header and trailer only (not zlib's, not a guess between them).
    guard inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      stream.deinitialize(count: 1)
      stream.deallocate()
      window.deallocate()
      throw .malformed
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
    window.deallocate()
  }

  /// Inflates `input`, handing `output` each window it fills before making the next: what
  /// `output` throws (a limit passed) stops the inflation there. Throws `CancellationError`
  /// when the task is cancelled (the request's deadline passed).
  package func inflate(
    _ input: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    guard let base = input.baseAddress, !input.isEmpty else { return }
    stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = UInt32(input.count)
    defer {
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    while stream.pointee.avail_in > 0 {
      try Task.checkCancellation()
      if !insideMember {
        // What follows a member's end must be another member, from its header on.
        if members > 0, inflateReset(stream) != Z_OK { throw Failure.malformed }
        insideMember = true
      }
      let inputBefore = stream.pointee.avail_in
      stream.pointee.next_out = window.baseAddress?.assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = UInt32(window.count)
      let status = CZlib.inflate(stream, Z_NO_FLUSH)
      let produced = window.count - Int(stream.pointee.avail_out)
      if produced > 0 { try output(UnsafeRawBufferPointer(rebasing: window[..<produced])) }
      switch status {
      case Z_STREAM_END:
        insideMember = false
        members += 1
      case Z_OK where produced > 0 || stream.pointee.avail_in < inputBefore:
        continue
      default:
        // Z_DATA_ERROR (not gzip, a bad checksum), Z_NEED_DICT, or no progress at all.
        throw Failure.malformed
      }
    }
  }

  /// The body's end: refused when it stopped inside a member or held none.
  package func finish() throws(Failure) {
    guard !insideMember, members > 0 else { throw .truncated }
  }
}
