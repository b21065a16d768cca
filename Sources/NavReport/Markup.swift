/// HTML that is safe by construction: text interpolated into it is escaped (in element content
/// and quoted attribute values alike), and only other `Markup` goes in as it is. The reports and
/// the console's pages are built of these, so a session id, a screen name or a cause full of
/// markup shows as text whatever the page that prints it forgets.
package struct Markup: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
  /// The HTML.
  package private(set) var html: String

  package var description: String { html }

  /// Markup the page writes itself, as it is: a literal's text is the page's own.
  package init(stringLiteral literal: StaticString) { html = "\(literal)" }

  package init(stringInterpolation: Interpolation) { html = stringInterpolation.html }

  private init(raw: String) { html = raw }

  /// Nothing.
  package static let empty = Markup(raw: "")

  /// `text`, escaped.
  package static func text(_ text: String) -> Markup { Markup(raw: HTML.escape(text)) }

  /// JSON text made inert inside a `<script>` element, for the page's script to read: `<`, `>`
  /// and `&` (which only its strings can hold) are written `\u003c`, `\u003e` and `\u0026`, so
  /// neither `</script` nor `<!--` can end the element or change how HTML reads what follows.
  /// The scan is by Unicode scalar (`HTML.rewriting`), not by character.
  package static func scriptData(_ json: String) -> Markup {
    Markup(
      raw: HTML.rewriting(json) { scalar in
        switch scalar {
        case "&": "\\u0026"
        case "<": "\\u003c"
        case ">": "\\u003e"
        default: nil
        }
      })
  }

  package static func += (left: inout Markup, right: Markup) { left.html += right.html }

  package static func + (left: Markup, right: Markup) -> Markup { Markup(raw: left.html + right.html) }

  /// Interpolations: text is escaped; markup (one or several) and whole numbers go in as they
  /// are.
  package struct Interpolation: StringInterpolationProtocol {
    package typealias StringLiteralType = StaticString
    fileprivate var html = ""

    package init(literalCapacity: Int, interpolationCount: Int) { html.reserveCapacity(literalCapacity * 2) }

    package mutating func appendLiteral(_ literal: StaticString) { html += "\(literal)" }

    package mutating func appendInterpolation(_ text: String) { html += HTML.escape(text) }

    package mutating func appendInterpolation(_ markup: Markup) { html += markup.html }

    package mutating func appendInterpolation(_ number: Int) { html += String(number) }

    package mutating func appendInterpolation(_ number: Int64) { html += String(number) }

    package mutating func appendInterpolation(_ parts: [Markup]) { html += parts.map(\.html).joined() }
  }
}
