/// Text from the store made safe to place in HTML: in element content and in quoted attribute
/// values alike, so a screen named `<script>alert(1)</script>` shows as those characters and
/// runs nothing.
package enum HTML {
  /// The start of a page, through `</head>`: UTF-8, a phone's viewport, the escaped `title`,
  /// and the reports' inline style.
  package static func documentHead(title: String) -> Markup {
    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      + "<title>\(title)</title><style>\(ReportStyle.css)</style></head>"
  }

  /// The text with `&`, `<`, `>`, `"` and `'` replaced by entities, and control characters
  /// (which a session id or screen name from another machine may hold) shown as `U+XXXX`.
  package static func escape(_ text: String) -> String {
    rewriting(text) { scalar in
      switch scalar {
      case "&": "&amp;"
      case "<": "&lt;"
      case ">": "&gt;"
      case "\"": "&quot;"
      case "'": "&#39;"
      case "\n", "\t": nil
      default:
        scalar.properties.generalCategory == .control
          ? "U+" + String(scalar.value, radix: 16, uppercase: true) : nil
      }
    }
  }

  /// `text` with each Unicode scalar that `replacement` names written as its text, and every
  /// other kept. The scan is by scalar, not by `Character`: a `>` followed by a combining mark is
  /// one character that a character search would not find, yet a browser still reads its `>`.
  static func rewriting(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
    var rewritten = ""
    rewritten.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let replaced = replacement(scalar) {
        rewritten += replaced
      } else {
        rewritten.unicodeScalars.append(scalar)
      }
    }
    return rewritten
  }
}
