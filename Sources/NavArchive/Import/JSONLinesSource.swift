import NavHistory

/// Where an import's lines come from, one at a time: a file or standard input read in chunks
/// (`LineReader`), lines already in memory (`LinesInMemory`), or anything else that can hand
/// over one line at a time (an upload's body, a socket, a decompressor).
@_spi(Internals) public protocol JSONLinesSource: SendableMetatype {
  /// The next line without its line break, or `nil` at the end. Throws when the input cannot
  /// be read or the line is too long; the import then stops with nothing of its transaction
  /// kept.
  mutating func nextLine() throws(LineReaderError) -> ArraySlice<UInt8>?
  /// The number of the line last returned, from 1: what the import's errors point at.
  var lineNumber: Int { get }
  /// The bytes read so far, for progress reports.
  var bytesRead: Int { get }
}

extension LineReader: JSONLinesSource {
  @_spi(Internals) public func nextLine() throws(LineReaderError) -> ArraySlice<UInt8>? {
    try next()
  }
}

/// Lines already in memory, as an import's source (tests, small uploads, generated events).
package struct LinesInMemory: JSONLinesSource, Sendable {
  private var lines: [[UInt8]]
  private var position = 0
  package private(set) var lineNumber = 0
  package private(set) var bytesRead = 0

  /// The lines, each without its line break.
  package init(_ lines: some Sequence<String>) {
    self.lines = lines.map { Array($0.utf8) }
  }

  package mutating func nextLine() throws(LineReaderError) -> ArraySlice<UInt8>? {
    guard position < lines.count else { return nil }
    let line = lines[position]
    position += 1
    lineNumber += 1
    bytesRead += line.count + 1
    return line[...]
  }
}
