import NavContract

/// An upload's body as lines, taken piece by piece as it streams in (inflated first when it is
/// gzip), with the contract's limits enforced while reading: a line, a request's lines and
/// bytes, and the body as sent. Past any of them the read stops at once, so a small gzip that
/// inflates to a gigabyte costs one window of memory and the work of one request's bytes, not
/// the gigabyte's. The collector feeds it from the connection; the fuzz target from its input.
package struct UploadBody {
  /// What stopped the read.
  package enum Failure: Error, Equatable {
    case tooLarge(String)
    /// Said to be gzip, and not gzip (or not all of it).
    case notGzip(GzipInflater.Failure)
    /// The connection failed, or ended, before the whole body arrived.
    case clientWentAway
  }

  private let limits: UploadLimits
  /// The body's inflater when it is gzip.
  private let inflater: GzipInflater?
  private var lines: [ArraySlice<UInt8>] = []
  private var current: [UInt8] = []
  private var total = 0

  /// A reader of a body that is gzip (inflated `windowBytes` at a time as it arrives) or not.
  package init(limits: UploadLimits, gzip: Bool, windowBytes: Int = 64 * 1024) throws(Failure) {
    self.limits = limits
    do {
      inflater = gzip ? try GzipInflater(windowBytes: windowBytes) : nil
    } catch {
      throw .notGzip(error)
    }
  }

  /// Takes the next piece of the body as sent: inflated first when it is gzip. Throws `Failure`,
  /// or `CancellationError` once the task is cancelled mid-inflation (the request's deadline).
  package mutating func take(_ piece: UnsafeRawBufferPointer) throws {
    guard let inflater else { return try takeLines(piece) }
    do {
      try inflater.inflate(piece) { window in try takeLines(window) }
    } catch let failure as GzipInflater.Failure {
      throw Failure.notGzip(failure)
    }
  }

  /// The body's end, once every piece was taken: its lines. A gzip body must end where a
  /// member ends; a last line without a newline counts.
  package mutating func finish() throws(Failure) -> [ArraySlice<UInt8>] {
    if let inflater {
      do {
        try inflater.finish()
      } catch {
        throw .notGzip(error)
      }
    }
    if !current.isEmpty { try endLine() }
    return lines
  }

  /// The most bytes a body may have as sent: the request's limit, and for gzip a 64th more for
  /// its framing (deflate adds at most a few bytes in a thousand to data it cannot shrink).
  package static func wireBytes(_ limits: UploadLimits, gzip: Bool) -> Int {
    gzip ? limits.requestBytes + limits.requestBytes / 64 + 1_024 : limits.requestBytes
  }

  /// Takes the next bytes of the (inflated) body. A buffer, not any collection of bytes: a
  /// generic reader called from another module went through the collection's witnesses for
  /// each byte, which made it the collector's hottest code.
  private mutating func takeLines(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
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
    // A carriage return at the end may be the first half of a CRLF split between two pieces,
    // which the line does not keep: it counts once the next piece says what it is.
    let kept = current.count - (current.last == UInt8(ascii: "\r") ? 1 : 0)
    guard kept <= limits.lineBytes else {
      throw .tooLarge("Line \(lines.count + 1) is over \(limits.lineBytes) bytes")
    }
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
