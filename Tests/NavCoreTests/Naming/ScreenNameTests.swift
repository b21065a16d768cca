import NavCore
import PropertyBased
import Testing

/// The screen-name rule of the wire format: string, only key, "name", "type", else "?".
@Suite struct ScreenNameTests {
  @Test func theRuleInOrder() {
    #expect(ScreenName.of("home") == "home")
    #expect(ScreenName.of(["numberDetail": ["_0": ["number": 3]]]) == "numberDetail")
    #expect(ScreenName.of(["name": "search", "query": "x"]) == "search")
    #expect(ScreenName.of(["type": "article", "id": 1]) == "article")
    #expect(ScreenName.of(["name": 3, "type": "article"]) == "article")
    #expect(ScreenName.of(["name": 3]) == "name")  // one key: the key wins
    #expect(ScreenName.of(["a": 1, "b": 2]) == "?")
    #expect(ScreenName.of([:]) == "?")
    #expect(ScreenName.of(42) == "?")
    #expect(ScreenName.of(nil) == "?")
    #expect(ScreenName.of(["home"]) == "?")
  }

  @Test func typedEnumScreensAreNamedByTheirCase() {
    #expect(ScreenName.of(AppScreen.home) == "home")
    #expect(ScreenName.of(AppScreen.numberDetail(number: 3)) == "numberDetail")
    #expect(Route<AppScreen>.push(.onboarding(step: 2)).screenName == "onboarding")
  }

  @Test func everyJSONValueIsNamedByTheRule() async {
    await propertyCheckJSON { value in
      let name = ScreenName.of(value)
      switch value {
      case .string(let string):
        #expect(name == string)
      case .object(let members) where members.count == 1:
        #expect(members[name] != nil)
      case .object(let members):
        let expected = members["name"]?.stringValue ?? members["type"]?.stringValue ?? "?"
        #expect(name == expected)
      default:
        #expect(name == "?")
      }
    }
  }
}

/// Names as a terminal shows them: escaped where a character could break a line, the
/// terminal's state or the reading order.
@Suite struct PrintableNameTests {
  @Test(arguments: [
    ("plain", "plain"), ("line\nbreak", #"line\nbreak"#), ("tab\there", #"tab\there"#),
    ("\u{1B}[31mred", #"\u{1B}[31mred"#),
    ("evil\u{202E}txt.exe", #"evil\u{202E}txt.exe"#), (#"back\slash"#, #"back\\slash"#), ("会话 é", "会话 é"),
  ])
  func aNameIsPrintedEscaped(_ name: String, _ printed: String) {
    #expect(ScreenName.printable(name) == printed)
  }

  @Test func aScreenPrintsCompactlyWithWhatItCarries() throws {
    #expect(ScreenName.compact(.object(["numberDetail": .object(["number": .number(3)])])) == "numberDetail(number: 3)")
    #expect(ScreenName.compact(.object(["home": .object([:])])) == "home")
    // An action as Swift encodes it reads as it is written: what the README's history shows for
    // its own `case numberTapped(Int)`.
    enum Action: Encodable {
      case numberTapped(Int)
      case moved(Int, to: String)
      case opened(_ id: Int, _ source: String)
    }
    #expect(try ScreenName.compact(JSONValue(encoding: Action.numberTapped(3))) == "numberTapped(3)")
    #expect(try ScreenName.compact(JSONValue(encoding: Action.moved(2, to: "b"))) == #"moved(2, to: "b")"#)
    #expect(try ScreenName.compact(JSONValue(encoding: Action.opened(7, "push"))) == #"opened(7, "push")"#)
    #expect(
      ScreenName.compact(.object(["f": .object(["_10": 1, "_2": 2, "_x": 3, "_01": 4])])) == #"f(2, 1, _01: 4, _x: 3)"#)
    #expect(ScreenName.compact(.string("home")) == "home")
    #expect(
      ScreenName.compact(.object(["search": .object(["query": .string(String(repeating: "q", count: 100))])])).count
        == 60)
  }
}
