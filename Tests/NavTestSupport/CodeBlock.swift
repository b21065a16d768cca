/// A fenced code block of a Markdown document: its language, the number of its first line, and
/// its lines. The docs' tests read the README's and the guides' blocks through it.
public struct CodeBlock: Sendable {
  /// What follows the opening fence: `swift`, `sh`, `console`, or nothing.
  public var language: String
  /// The number of the block's first line in the document, from 1.
  public var line: Int
  /// The lines between the fences.
  public var lines: [String]

  /// The lines as one text.
  public var text: String { lines.joined(separator: "\n") }

  /// The blocks of a Markdown text, in order. A fence is three backticks at the start of a line.
  public static func all(in markdown: String) -> [CodeBlock] {
    var blocks: [CodeBlock] = []
    var open: CodeBlock?
    for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if open == nil, line.hasPrefix("```") {
        open = CodeBlock(language: String(line.dropFirst(3)), line: index + 2, lines: [])
      } else if let block = open, line == "```" {
        blocks.append(block)
        open = nil
      } else {
        open?.lines.append(String(line))
      }
    }
    return blocks
  }
}
