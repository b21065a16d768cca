@_spi(Internals) import NavCore
import NavJSON
import NavTestSupport
import Testing

/// The parser's checking path (values checked but not built, as the export's operation
/// headline reads them) against the building parser: the same documents accepted, the same
/// errors at the same places.
@Suite struct CheckingParserTests {
  /// What the building parser says of `bytes`: nothing, or its error.
  static func builtError(_ bytes: [UInt8]) -> JSONParseError? {
    do {
      _ = try JSONParser.parse(bytes)
      return nil
    } catch {
      return error
    }
  }

  /// What the checking parser says of `bytes`.
  static func checkedError(_ bytes: [UInt8]) -> JSONParseError? {
    bytes.withUnsafeBufferPointer { buffer -> JSONParseError? in
      do throws(JSONParseError) {
        try JSONParser.check(buffer)
        return nil
      } catch {
        return error
      }
    }
  }

  /// Documents that reach each way out of the checking path: duplicates (plain, escaped,
  /// told apart only by normalization, past the pairwise limit), depth, strings and numbers.
  static let edgeCases: [String] = [
    #"{"a":1,"a":2}"#,
    #"{"p":{"x":[1,{"k":true,"k":false}]}}"#,
    #"{"a":1,"\u0061":2}"#,
    #"{"\u0061":1,"a":2}"#,
    "{\"\u{E9}\":1,\"e\u{301}\":2}",
    "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"k3\":0}",
    "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}",
    String(repeating: "[", count: JSONParser.maximumDepth + 1)
      + String(repeating: "]", count: JSONParser.maximumDepth + 1),
    String(repeating: "{\"a\":", count: JSONParser.maximumDepth) + "1"
      + String(repeating: "}", count: JSONParser.maximumDepth),
    "{\"s\":\"tab\tinside\"}",
    #"{"s":"\ud800"}"#,
    #"{"s":"unterminated}"#,
    #"{"n":9007199254740993}"#,
    #"{"n":-0.5e-3,"m":01}"#,
    #"{"t":tru}"#,
    #"{"a":[1,2,]}"#,
    #"{"a" 1}"#,
    #"{"a":1}x"#,
    #"{"a":{"b":1},}"#,
    "{\"a\":\"\u{FF}\"}",
    "[\"\u{1F600}\", {\"k\": \"v\", \"k\" : null}]",
    "",
    "  ",
    "{",
  ]

  @Test(arguments: edgeCases) func anEdgeCaseIsCheckedAsItIsBuilt(_ text: String) {
    let bytes = Array(text.utf8)
    #expect(Self.checkedError(bytes) == Self.builtError(bytes))
  }

  @Test func invalidUTF8InsideAStringIsCheckedAsItIsBuilt() {
    let bytes = Array(#"{"a":{"b":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8)
    #expect(Self.builtError(bytes) != nil)
    #expect(Self.checkedError(bytes) == Self.builtError(bytes))
  }

  @Test func mutatedDocumentsAreCheckedAsTheyAreBuilt() throws {
    let session = try SessionID("check")
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    var refused = 0
    for round in 0..<FuzzTests.cases {
      var bytes: [UInt8]
      if round.isMultiple(of: 2) {
        bytes = FuzzTests.mutatedLine(session: session, using: &rng)
      } else {
        bytes = Array(((try? WireFormat.canonicalString(RandomTrees.json(depth: 4, using: &rng))) ?? "").utf8)
        ByteMutations.mutate(&bytes, rounds: 0...3, using: &rng)
      }
      let built = Self.builtError(bytes)
      if built != nil { refused += 1 }
      #expect(Self.checkedError(bytes) == built, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(refused > 0 && refused < FuzzTests.cases, "seed \(seed): the mutations should give both outcomes")
  }

  // MARK: The operation headline

  /// The headline of an operation's text, or its error.
  static func headline(_ bytes: [UInt8]) -> Result<OperationHeadline, WireFormatError> {
    bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(WireFormatError) in try OperationHeadline(storedOperation: buffer) }
    }
  }

  @Test func theHeadlineShowsWhatTheWholeOperationSays() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    var compared = 0
    for _ in 0..<FuzzTests.cases {
      let state = RandomTrees.coordinator(depth: 2, using: &rng)
      let original = RandomTrees.operation(for: state, using: &rng)
      // (A count, an index or a structure that reading would refuse is not written at all.)
      guard var bytes = try? WireFormat.canonicalBytes(original) else { continue }
      ByteMutations.mutate(&bytes, rounds: 0...2, using: &rng)
      let whole = Result { () throws(WireFormatError) in try WireFormat.decode(AnyOperation.self, from: bytes) }
      switch (whole, Self.headline(bytes)) {
      case (.success(let operation), .success(let headline)):
        compared += 1
        #expect(headline.name == operation.name, "seed \(seed)")
        #expect(headline.path == operation.path, "seed \(seed)")
        #expect(headline.screenName == operation.screen.map { ScreenName.of($0) }, "seed \(seed)")
      case (.success, .failure(let error)):
        Issue.record("seed \(seed): the headline refused a readable operation: \(error)")
      case (.failure(let error), .success):
        // The headline reads less than the whole operation; what it does read, and the JSON,
        // it checks the same: only a field it does not build may be what the whole reading refused.
        #expect(Self.builtError(bytes) == nil, "seed \(seed): the headline accepted bad JSON: \(error)")
      case (.failure(let wholeError), .failure(let headlineError)):
        if Self.builtError(bytes) != nil { #expect(headlineError == wholeError, "seed \(seed)") }
      }
    }
    #expect(compared > FuzzTests.cases / 4, "seed \(seed): too few readable operations to compare")
  }

  /// Screens that reach each way the headline names one: from the bytes, or built when the
  /// bytes alone cannot tell (escapes, other UTF-8, many members).
  static let screens: [String] = [
    #"{"detail":{"id":7}}"#,
    #"{"id":7,"name":"cart"}"#,
    #"{"id":7,"type":"cart"}"#,
    #"{"name":7,"type":"cart"}"#,
    #"{"name":"caf\u00e9","type":"x"}"#,
    "{\"name\":\"caf\u{E9}\",\"id\":1}",
    #"{"d\u00e9tail":{}}"#,
    "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + ",\"name\":\"big\"}",
    #"{"a":1,"b":2}"#,
    #"{}"#,
    #""home""#,
    #"[1,2]"#,
    #"42"#,
    #"null"#,
  ]

  @Test(arguments: screens) func theHeadlineNamesAScreenAsScreenNameDoes(_ screen: String) throws {
    let text = #"{"op":"push","screen":"# + screen + "}"
    let headline = try Self.headline(Array(text.utf8)).get()
    #expect(headline.screenName == ScreenName.of(try JSONParser.parse(screen)))
  }

  @Test func theHeadlineNamesRandomScreensAsScreenNameDoes() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    for _ in 0..<FuzzTests.cases {
      let screen = RandomTrees.json(depth: 3, using: &rng)
      let text = try WireFormat.canonicalBytes(AnyOperation.push(screen))
      let headline = try Self.headline(text).get()
      #expect(headline.screenName == ScreenName.of(screen), "seed \(seed): \(String(decoding: text, as: UTF8.self))")
    }
  }

  @Test func theHeadlineNamesAScreenWithoutItsPayloadAndRefusesABrokenOne() throws {
    let named = try #require(
      try? Self.headline(Array(#"{"op":"push","screen":{"detail":{"id":7,"tags":["a"]}}}"#.utf8)).get())
    #expect(named.name == "push")
    #expect(named.screenName == "detail")
    #expect(named.path == .top)
    let byField = try #require(try? Self.headline(Array(#"{"op":"push","screen":{"id":7,"name":"cart"}}"#.utf8)).get())
    #expect(byField.screenName == "cart")
    let duplicate = Array(#"{"op":"push","screen":{"detail":{"id":7,"id":8}}}"#.utf8)
    #expect(throws: WireFormatError.self) { try Self.headline(duplicate).get() }
    #expect(throws: WireFormatError.self) {
      try Self.headline(Array(#"{"op":"push","screen":{"detail":{"id":07}}}"#.utf8)).get()
    }
  }
}
