@_spi(Internals) import NavCore
import NavJSON
import Testing

/// Inputs the coverage-guided fuzzers (`Fuzz/`) found, each kept as a regression test with
/// the property it broke.
@Suite struct FuzzFindingsTests {
  /// fuzz-json, 2026-11-24: `229564509331541229568` is exactly a double, but the canonical
  /// writer spells that double `229564509331541230000` (RFC 8785's shortest digits), and the
  /// strict parser refused that as an inexact integer: canonical text did not read back, so an
  /// export in the wire format could not be imported again.
  @Test func theCanonicalTextOfALargeIntegerReadsBack() throws {
    let exact = try JSONParser.parse("229564509331541229568")
    #expect(exact.canonicalString == "229564509331541230000")
    let again = try JSONParser.parse(exact.canonicalString)
    #expect(again == exact)
    #expect(again.canonicalString == exact.canonicalString)
    // 2^60, both ways.
    #expect(try JSONParser.parse("1152921504606847000") == JSONParser.parse("1152921504606846976"))
    // A literal that is neither exact nor canonical is still refused: its value would change.
    #expect(throws: JSONParseError.self) { try JSONParser.parse("9007199254740993") }
    #expect(throws: JSONParseError.self) { try JSONParser.parse("229564509331541230001") }
  }

  /// The same number inside an event line: the event decodes from its own canonical bytes.
  @Test func anEventWithALargeIntegerReadsBackFromItsCanonicalBytes() throws {
    let line =
      #"{"session":"s","at":"2026-11-24T00:00:00.000Z","op":{"op":"push","screen":{"id":229564509331541229568}}}"#
    let event = try WireFormat.decode(AnyEvent.self, from: line)
    let canonical = try WireFormat.canonicalBytes(event)
    #expect(try WireFormat.decode(AnyEvent.self, from: canonical) == event)
  }
}
