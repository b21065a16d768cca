@_spi(Internals) import NavCore
import NavReport
import NavTestSupport
import PropertyBased
import Testing

/// The reports are built of `Markup`: text from the store goes in escaped, in element content
/// and in quoted attribute values alike, and JSON for the page's script goes in inert.
@Suite struct MarkupTests {
  /// Pieces of hostile text: markup, quotes, entities, comments, a control character, an emoji.
  static let pieces = [
    "<", ">", "&", "\"", "'", "/", "=", " ", "script", "<b id=\"x\">", "</td>", "&amp;", "-->", "<!--", "</script",
    "\u{7}", "é", "😀", "\\", "javascript:",
  ]

  static func hostile(using rng: inout some RandomNumberGenerator) -> String {
    (0..<Int.random(in: 1...8, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "<" }.joined()
  }

  @Test func textInterpolatedInContentAndAttributesOpensNothing() async {
    await checkProperty(count: 200, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let (content, attribute) = (Self.hostile(using: &rng), Self.hostile(using: &rng))
      let markup: Markup = "<p title=\"\(attribute)\">\(content)</p>"
      let html = markup.html
      // The only tags, quotes and entities are the literal's own.
      #expect(html.count { $0 == "<" } == 2 && html.count { $0 == ">" } == 2)
      #expect(html.count { $0 == "\"" } == 2)
      #expect(!html.contains("\u{7}"), "a control character is shown as U+XXXX")
      let text = html.dropFirst("<p title=\"".count + HTML.escape(attribute).count + 2).dropLast("</p>".count)
      #expect(String(text) == HTML.escape(content))
    }
  }

  @Test func jsonForTheScriptIsInertAndReadsBack() async throws {
    await checkProperty(count: 200, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let value = JSONValue.object(["screen": .string(Self.hostile(using: &rng)), "n": .number(1)])
      let data = Markup.scriptData(value.canonicalString).html
      #expect(!data.contains("<") && !data.contains(">") && !data.contains("&"))
      #expect((try? JSONParser.parse(Array(data.utf8))) == value, "the script reads the same value")
    }
  }

  @Test func markupGoesInAsItIsAndNumbersAsDigits() {
    let inner: Markup = "<b>\("<i>")</b>"
    let outer: Markup = "<p data-n=\"\(42)\">\(inner)\([inner, .text("&")])</p>"
    #expect(outer.html == "<p data-n=\"42\"><b>&lt;i&gt;</b><b>&lt;i&gt;</b>&amp;</p>")
  }
}
