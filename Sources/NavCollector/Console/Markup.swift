import NavReport

/// HTML that is safe by construction: text interpolated into it is escaped (in element content
/// and quoted attribute values alike), and only other `Markup` goes in as it is. A console page
/// is built of these, so a session id, a screen name or a cause full of markup shows as text
/// whatever the page that prints it forgets.
struct Markup: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
  /// The HTML.
  private(set) var html: String

  var description: String { html }

  /// Markup the page writes itself, as it is: a literal's text is the page's own.
  init(stringLiteral literal: StaticString) { html = "\(literal)" }

  init(stringInterpolation: Interpolation) { html = stringInterpolation.html }

  private init(raw: String) { html = raw }

  /// Nothing.
  static let empty = Markup(raw: "")

  /// `text`, escaped.
  static func text(_ text: String) -> Markup { Markup(raw: HTML.escape(text)) }

  static func += (left: inout Markup, right: Markup) { left.html += right.html }

  /// Interpolations: text is escaped; markup (one or several) and whole numbers go in as they
  /// are.
  struct Interpolation: StringInterpolationProtocol {
    typealias StringLiteralType = StaticString
    fileprivate var html = ""

    init(literalCapacity: Int, interpolationCount: Int) { html.reserveCapacity(literalCapacity * 2) }

    mutating func appendLiteral(_ literal: StaticString) { html += "\(literal)" }

    mutating func appendInterpolation(_ text: String) { html += HTML.escape(text) }

    mutating func appendInterpolation(_ markup: Markup) { html += markup.html }

    mutating func appendInterpolation(_ number: Int) { html += String(number) }

    mutating func appendInterpolation(_ parts: [Markup]) { html += parts.map(\.html).joined() }
  }
}
