import Foundation
@_spi(Internals) import NavHistory

/// Reads a file (or standard input) line by line in constant memory.
///
/// Imports of millions of events stream through this: it holds one chunk and the current line,
/// never the whole file. Each byte is searched for a newline once, however long its line, so
/// reading is linear in the input; a line longer than `maximumLineLength` is refused as soon as
/// that many bytes have been read without a newline, instead of growing the buffer without end
/// (an upload cut short, or a binary file given by mistake).
@_spi(Internals) public final class LineReader {
  /// The longest line accepted by default: 16 MiB, far more than any event's state needs.
  package static let defaultMaximumLineLength = 16 << 20

  /// The longest line accepted, in bytes, not counting its `\n` (or `\r\n`).
  package let maximumLineLength: Int
  private let handle: FileHandle
  private let chunkSize: Int
  private var buffer: [UInt8] = []
  /// Where the line being read begins in `buffer`.
  private var start = 0
  /// How far `buffer` is known to hold no newline, from `start` on: the next search begins here.
  private var searched = 0
  private var exhausted = false
  /// The 1-based number of the line last returned.
  public private(set) var lineNumber = 0
  /// Bytes read so far, for progress reports.
  public private(set) var bytesRead = 0

  /// Reads from an open handle (standard input, or a file). Lines may be up to 16 MiB long by
  /// default (`defaultMaximumLineLength`; a default argument can name only a public value).
  public init(handle: FileHandle, chunkSize: Int = 1 << 16, maximumLineLength: Int = 16 << 20) {
    self.handle = handle
    self.chunkSize = max(1, chunkSize)
    self.maximumLineLength = max(0, maximumLineLength)
  }

  /// The next line without its newline (and without a `\r` before it), or `nil` at the end.
  /// Throws when the input cannot be read (a folder, an I/O error) or the line is too long.
  public func next() throws(LineReaderError) -> ArraySlice<UInt8>? {
    while true {
      if let newline = buffer[searched...].firstIndex(of: 0x0A) {
        return try take(upTo: newline, next: newline + 1)
      }
      searched = buffer.count
      // One byte of slack: a `\r` that a `\n` may still follow is not part of the line.
      if buffer.count - start > maximumLineLength + 1
        || (buffer.count - start == maximumLineLength + 1 && buffer.last != 0x0D)
      {
        throw .lineTooLong(line: lineNumber + 1, limit: maximumLineLength)
      }
      if exhausted {
        guard start < buffer.count else { return nil }
        return try take(upTo: buffer.count, next: buffer.count)
      }
      if start > 0 {
        buffer.removeSubrange(..<start)
        searched -= start
        start = 0
      }
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: chunkSize) ?? Data()
      } catch {
        throw .unreadable(reason: LineReaderError.systemReason(for: error))
      }
      if chunk.isEmpty {
        exhausted = true
      } else {
        buffer.append(contentsOf: chunk)
        bytesRead += chunk.count
      }
    }
  }

  /// Returns the line from `start` to `end` (a `\r` before the end dropped), and moves on to `next`.
  private func take(upTo end: Int, next: Int) throws(LineReaderError) -> ArraySlice<UInt8> {
    var line = buffer[start..<end]
    if end < next, line.last == 0x0D { line = line.dropLast() }
    guard line.count <= maximumLineLength else { throw .lineTooLong(line: lineNumber + 1, limit: maximumLineLength) }
    start = next
    searched = next
    lineNumber += 1
    return line
  }
}
