/// Why a text is not acceptable JSON, and where.
///
/// Imports name the line of a JSON Lines file; this names the place inside the line, so a person
/// can find the mistake without a JSON linter.
@_spi(Internals) public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Byte offset of the problem from the start of the text.
  public var offset: Int
  /// 1-based line of the problem.
  public var line: Int
  /// 1-based column (in bytes) of the problem.
  public var column: Int
  /// What was wrong, in words.
  public var message: String

  public var description: String {
    "invalid JSON at line \(line), column \(column): \(message)"
  }
}
