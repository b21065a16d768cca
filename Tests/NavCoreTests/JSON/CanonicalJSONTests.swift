import NavCore
import NavJSON
import Testing

/// RFC 8785 (JSON Canonicalization Scheme): the number vectors of its Appendix B, its key-order
/// example, and its string-escaping rules.
@Suite struct CanonicalJSONTests {
  static let numberVectors: [(UInt64, String)] = [
    (0x0000_0000_0000_0000, "0"),
    (0x8000_0000_0000_0000, "0"),
    (0x0000_0000_0000_0001, "5e-324"),
    (0x8000_0000_0000_0001, "-5e-324"),
    (0x7FEF_FFFF_FFFF_FFFF, "1.7976931348623157e+308"),
    (0xFFEF_FFFF_FFFF_FFFF, "-1.7976931348623157e+308"),
    (0x4340_0000_0000_0000, "9007199254740992"),
    (0xC340_0000_0000_0000, "-9007199254740992"),
    (0x4430_0000_0000_0000, "295147905179352830000"),
    (0x44B5_2D02_C7E1_4AF5, "9.999999999999997e+22"),
    (0x44B5_2D02_C7E1_4AF6, "1e+23"),
    (0x44B5_2D02_C7E1_4AF7, "1.0000000000000001e+23"),
    (0x444B_1AE4_D6E2_EF4E, "999999999999999700000"),
    (0x444B_1AE4_D6E2_EF4F, "999999999999999900000"),
    (0x444B_1AE4_D6E2_EF50, "1e+21"),
    (0x3EB0_C6F7_A0B5_ED8C, "9.999999999999997e-7"),
    (0x3EB0_C6F7_A0B5_ED8D, "0.000001"),
    (0x41B3_DE43_5555_5553, "333333333.3333332"),
    (0x41B3_DE43_5555_5554, "333333333.33333325"),
    (0x41B3_DE43_5555_5555, "333333333.3333333"),
    (0x41B3_DE43_5555_5556, "333333333.3333334"),
    (0x41B3_DE43_5555_5557, "333333333.33333343"),
    (0xBECB_F647_612F_3696, "-0.0000033333333333333333"),
    (0x4314_3FF3_C1CB_0959, "1424953923781206.2"),
  ]

  @Test func numbersFollowECMAScript() {
    for (bits, expected) in Self.numberVectors {
      #expect(JSONValue.number(Double(bitPattern: bits)).canonicalString == expected, "bits \(String(bits, radix: 16))")
    }
    #expect(JSONValue.number(1e20).canonicalString == "100000000000000000000")
    #expect(JSONValue.number(1.5).canonicalString == "1.5")
    #expect(JSONValue.number(0.002).canonicalString == "0.002")
    #expect(JSONValue.number(1e-7).canonicalString == "1e-7")
    #expect(JSONValue.number(-42).canonicalString == "-42")
  }

  /// ECMAScript prints the shortest digits that name the double, padded with zeros: above 2^53
  /// those can be fewer than the integer's own digits. (JavaScript: `String(2 ** 59)`.)
  @Test func integersAboveTwoToThe53PrintTheirShortestDigits() throws {
    let cases: [(Double, String)] = [
      (9_007_199_254_740_992, "9007199254740992"),  // 2^53, the last integer with all its digits
      (18_014_398_509_481_984, "18014398509481984"),  // 2^54: 17 digits are the shortest
      (576_460_752_303_423_488, "576460752303423500"),  // 2^59
      (-576_460_752_303_423_488, "-576460752303423500"),
      (999_999_999_999_999_872, "999999999999999900"),
      (1e18, "1000000000000000000"),
    ]
    for (number, expected) in cases {
      #expect(JSONValue.number(number).canonicalString == expected)
      // The direct writer (an integer field of an operation, never negative) agrees with the
      // tree's form.
      if let integer = Int(exactly: number), integer >= 0 {
        let operation = try WireFormat.canonicalString(AnyOperation.popTo(index: integer))
        #expect(operation == #"{"index":\#(expected),"op":"popTo"}"#)
      }
    }
  }

  @Test func keysSortByUTF16CodeUnits() throws {
    // RFC 8785 §3.2.3: U+1F600 (a surrogate pair, D83D DE00) sorts before U+FB33.
    let object = try JSONParser.parse(
      #"{"\u20ac":"Euro","\r":"CR","\ufb33":"Hebrew","1":"One","\ud83d\ude00":"Emoji","\u0080":"Control","\u00f6":"Latin"}"#
    )
    #expect(
      object.canonicalString
        == "{\"\\r\":\"CR\",\"1\":\"One\",\"\u{80}\":\"Control\",\"ö\":\"Latin\",\"€\":\"Euro\",\"😀\":\"Emoji\",\"\u{FB33}\":\"Hebrew\"}"
    )
  }

  @Test func stringsUseOnlyTheMandatoryEscapes() {
    let value = JSONValue.string("quote\" backslash\\ slash/ \u{8}\u{9}\u{A}\u{C}\u{D} \u{0}\u{F}\u{1F} del\u{7F} é😀")
    #expect(value.canonicalString == #""quote\" backslash\\ slash/ \b\t\n\f\r \u0000\u000f\u001f del"# + "\u{7F} é😀\"")
  }

  @Test func wholeDocumentsAreCompactAndSorted() throws {
    let parsed = try JSONParser.parse(
      " { \"b\" : [ 1 , 2.50 , true , null ] , \"a\" : { \"z\" : \"\" , \"y\" : -0 } } ")
    #expect(parsed.canonicalString == #"{"a":{"y":0,"z":""},"b":[1,2.5,true,null]}"#)
  }

  @Test func canonicalTextParsesBackToTheSameValue() async {
    await propertyCheckJSON { value in
      let text = value.canonicalString
      let back = try JSONParser.parse(text)
      #expect(back == value)
      #expect(back.canonicalString == text)
    }
  }
}
