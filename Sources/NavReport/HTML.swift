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
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&#39;"
      case "\n", "\t": escaped.unicodeScalars.append(scalar)
      default:
        if scalar.properties.generalCategory == .control {
          escaped += "U+" + String(scalar.value, radix: 16, uppercase: true)
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    return escaped
  }
}
