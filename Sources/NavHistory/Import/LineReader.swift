import Foundation

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

/// Why the input of an import could not be read.
public enum LineReaderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The system refused the read (a folder, an I/O error); `reason` is its words.
  case unreadable(reason: String)
  /// Line `line` is longer than `limit` bytes; it was refused before the rest of it was read.
  case lineTooLong(line: Int, limit: Int)

  public var description: String {
    switch self {
    case .unreadable(let reason):
      "cannot read the input: \(reason)"
    case .lineTooLong(let line, let limit):
      "line \(line) is longer than \(limit) bytes, the longest line allowed (an event is far shorter: is the input cut, or not JSON Lines?)"
    }
  }

  /// The system's reason for a failed read or write ("Is a directory", "No space left on
  /// device") rather than Foundation's wrapper around it.
  package static func systemReason(for error: any Error) -> String {
    let error = error as NSError
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
      let message = strerror(Int32(underlying.code)).map({ String(cString: $0) })
    {
      return message
    }
    return error.localizedDescription
  }
}
