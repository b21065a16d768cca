import Foundation

/// Why the input of an import could not be read.
public enum LineReaderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The system refused the read (a folder, an I/O error); `reason` is its words.
  case unreadable(reason: String)
  /// Line `line` is longer than `limit` bytes; it was refused before the rest of it was read.
  case lineTooLong(line: Int, limit: Int)
  /// Line `line` could not be turned into events (`import --states`: a state that does not
  /// decode, or one no operations reach from the state before); `reason` says why.
  case unconvertible(line: Int, reason: String)

  public var description: String {
    switch self {
    case .unconvertible(let line, let reason):
      "line \(line): \(reason)"
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
