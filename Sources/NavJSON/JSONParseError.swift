/// Why a text is not acceptable JSON, and where.
///
/// Imports name the line of a JSON Lines file; this names the place inside the line, so a person
/// can find the mistake without a JSON linter.
package struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Byte offset of the problem from the start of the text.
  package var offset: Int
  /// 1-based line of the problem.
  package var line: Int
  /// 1-based column (in bytes) of the problem.
  package var column: Int
  /// What was wrong, in words.
  package var message: String

  package var description: String {
    "invalid JSON at line \(line), column \(column): \(message)"
  }
}
