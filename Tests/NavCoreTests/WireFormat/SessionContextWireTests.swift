import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// A `start`'s optional `context`: written canonically, read back as written, refused when it
/// has a second encoding, and absent from a start that has none.
struct SessionContextWireTests {
  static let home = #"{"routes":[{"screen":"home","style":"root"}]}"#

  @Test func aContextIsWrittenWithItsKeysSortedAndReadBack() throws {
    let context = SessionContext(
      appVersion: "2.3.1", appBuild: "412", osName: "iOS", osVersion: "17.5.1", deviceModel: "iPhone15,2",
      locale: "fr_FR", timeZone: "Europe/Paris", userID: "install-7f3a", app: ["plan": "pro", "beta": true])
    let operation = AnyOperation.start(.stack([.root("home")]), context: context)
    let text = try canonical(operation)
    #expect(
      text
        == #"{"context":{"app":{"beta":true,"plan":"pro"},"appBuild":"412","appVersion":"2.3.1","deviceModel":"iPhone15,2","locale":"fr_FR","osName":"iOS","osVersion":"17.5.1","timeZone":"Europe/Paris","userId":"install-7f3a"},"op":"start","state":\#(Self.home)}"#
    )
    #expect(try decoded(AnyOperation.self, text) == operation)
    #expect(try decoded(AnyOperation.self, text).context == context)
  }

  @Test func aStartWithoutContextIsWrittenAsBefore() throws {
    #expect(try canonical(AnyOperation.start(.stack([.root("home")]))) == #"{"op":"start","state":\#(Self.home)}"#)
    #expect(
      try canonical(AnyOperation.start(.stack([.root("home")]), context: SessionContext()))
        == #"{"op":"start","state":\#(Self.home)}"#)
    #expect(try decoded(AnyOperation.self, #"{"op":"start","state":\#(Self.home)}"#).context == nil)
  }

  @Test(arguments: [
    (#"{}"#, "context must not be empty: leave it out"),
    (#"{"app":{}}"#, "app must not be empty: leave it out"),
    (#"{"appVersion":""}"#, "appVersion must be 1 to 256 characters, not 0"),
    (#"{"osName":7}"#, "expected a string, found a number"),
    (#"{"userID":"x"}"#, #"unknown field "userID" in context"#),
    (#"{"app":[1]}"#, "expected an object, found an array"),
  ])
  func aContextWithASecondEncodingOrABadFieldIsRefused(context: String, message: String) {
    let text = #"{"op":"start","state":\#(Self.home),"context":\#(context)}"#
    #expect {
      try decoded(AnyOperation.self, text)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func onlyStartTakesAContext() {
    #expect(throws: (any Error).self) { try decoded(AnyOperation.self, #"{"op":"pop","context":{"osName":"iOS"}}"#) }
  }

  @Test func randomContextsRoundTrip() async {
    let texts = ["iOS", "é 🧭", String(repeating: "x", count: 256), "\"quoted\"\n"]
    let contexts = Generator<SessionContext, Shrink.None<SessionContext>> { rng in
      func text() -> String? { Bool.random(using: &rng) ? texts.randomElement(using: &rng) : nil }
      var app: [String: JSONValue] = [:]
      for key in ["plan", "cohort", "ab"] where Bool.random(using: &rng) {
        app[key] = Bool.random(using: &rng) ? .string(key) : .number(Double(Int.random(in: -9...9, using: &rng)))
      }
      return SessionContext(
        appVersion: text(), appBuild: text(), osName: text(), osVersion: text(), deviceModel: text(), locale: text(),
        timeZone: text(), userID: text(), app: app)
    }
    await checkProperty(count: 200, input: contexts) { context in
      let operation = AnyOperation.start(.stack([.root("home")]), context: context)
      let text = try canonical(operation)
      #expect(try decoded(AnyOperation.self, text) == operation)
      #expect(try canonical(decoded(AnyOperation.self, text)) == text)
      #expect(text.contains("context") == !context.isEmpty)
    }
  }
}
