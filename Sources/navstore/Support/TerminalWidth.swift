/// How many columns a terminal gives a text: two for East Asian wide and full-width
/// characters and for emoji shown as emoji by default (Unicode's Emoji_Presentation: 🚀, ⌚),
/// none for combining marks and variation selectors, one for the rest. Tables pad by this, not
/// by the character count, so a session id in Chinese or with an emoji keeps its columns
/// aligned.
enum TerminalWidth {
  static func of(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
  }

  /// `text` followed by spaces up to `width` columns.
  static func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - of(text)))
  }

  /// `text` cut to at most `width` columns, with `…` in the last column when it was cut.
  static func truncated(_ text: String, to width: Int) -> String {
    guard of(text) > width else { return text }
    var kept = ""
    var used = 0
    for character in text {
      let columns = of(String(character))
      guard used + columns <= width - 1 else { break }
      kept.append(character)
      used += columns
    }
    return kept + "…"
  }

  private static func width(of scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalar.properties.isEmojiPresentation { return 2 }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
      0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}
