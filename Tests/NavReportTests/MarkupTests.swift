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
    // Marks that join the character before them into one grapheme (`>` and U+0338 read as `≯`),
    // so a search by `Character` would not find the `<`, `>` or `&` they follow.
    "\u{338}", "\u{301}", "\u{200D}", "\u{FE0F}",
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
      #expect(html.utf8.count { $0 == UInt8(ascii: "<") } == 2 && html.utf8.count { $0 == UInt8(ascii: ">") } == 2)
      #expect(html.utf8.count { $0 == UInt8(ascii: "\"") } == 2)
      #expect(!html.contains("\u{7}"), "a control character is shown as U+XXXX")
      // By bytes: a joining mark makes one character of the quote or `>` and the text after it.
      let text = html.utf8.dropFirst("<p title=\"".utf8.count + HTML.escape(attribute).utf8.count + 2)
        .dropLast("</p>".utf8.count)
      #expect(Array(text) == Array(HTML.escape(content).utf8))
    }
  }

  @Test func jsonForTheScriptIsInertAndReadsBack() async throws {
    await checkProperty(count: 200, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let value = JSONValue.object(["screen": .string(Self.hostile(using: &rng)), "n": .number(1)])
      let data = Markup.scriptData(value.canonicalString).html
      #expect(!data.utf8.contains { [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&")].contains($0) })
      #expect((try? JSONParser.parse(Array(data.utf8))) == value, "the script reads the same value")
    }
  }

  @Test func markupGoesInAsItIsAndNumbersAsDigits() {
    let inner: Markup = "<b>\("<i>")</b>"
    let outer: Markup = "<p data-n=\"\(42)\">\(inner)\([inner, .text("&")])</p>"
    #expect(outer.html == "<p data-n=\"42\"><b>&lt;i&gt;</b><b>&lt;i&gt;</b>&amp;</p>")
  }
}
