import Foundation

/// Reads a file (or standard input) line by line in constant memory.
///
/// Imports of millions of events stream through this: it holds one chunk and the current line,
/// never the whole file.
public final class LineReader {
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private var start = 0
  private var exhausted = false
  private let chunkSize: Int
  /// The 1-based number of the line last returned.
  public private(set) var lineNumber = 0
  /// Bytes read so far, for progress reports.
  public private(set) var bytesRead = 0

  /// Reads from an open handle (standard input, or a file).
  public init(handle: FileHandle, chunkSize: Int = 1 << 16) {
    self.handle = handle
    self.chunkSize = chunkSize
  }

  /// The next line without its newline (and without a `\r` before it), or `nil` at the end.
  public func next() -> ArraySlice<UInt8>? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        var line = buffer[start..<newline]
        if line.last == 0x0D { line = line.dropLast() }
        start = newline + 1
        lineNumber += 1
        return line
      }
      if exhausted {
        guard start < buffer.count else { return nil }
        let line = buffer[start...]
        start = buffer.count
        lineNumber += 1
        return line
      }
      buffer.removeSubrange(..<start)
      start = 0
      let chunk = handle.readData(ofLength: chunkSize)
      if chunk.isEmpty { exhausted = true } else {
        buffer.append(contentsOf: chunk)
        bytesRead += chunk.count
      }
    }
  }
}
