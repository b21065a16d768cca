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
  /// Throws when the input cannot be read (a directory, an I/O error).
  public func next() throws(LineReaderError) -> ArraySlice<UInt8>? {
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
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: chunkSize) ?? Data()
      } catch {
        throw LineReaderError(error)
      }
      if chunk.isEmpty { exhausted = true } else {
        buffer.append(contentsOf: chunk)
        bytesRead += chunk.count
      }
    }
  }
}

/// Why the input of an import could not be read.
public struct LineReaderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What the system said.
  public var message: String

  /// The system's reason for a failed read ("Is a directory"), rather than Foundation's wrapper.
  public init(_ error: any Error) {
    message = (error as NSError).underlyingErrorDescription
  }

  public var description: String { "cannot read the input: \(message)" }
}

extension NSError {
  /// The POSIX reason when there is one ("Is a directory"), else the error's own text.
  fileprivate var underlyingErrorDescription: String {
    if let underlying = userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
      let message = strerror(Int32(underlying.code)).map({ String(cString: $0) })
    {
      return message
    }
    return localizedDescription
  }
}
