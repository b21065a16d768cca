import CustomDump
import Foundation
import NavCore
import NavJSON
import NavTestSupport
import Testing

/// The wire format's documented shapes decode, and values encode to the normalized form.
@Suite struct WireFormatRoundTripTests {
  @Test func specExamplesDecode() throws {
    let push = try decoded(AnyRoute.self, #"{"style": "push", "screen": {"numberDetail": {"number": 3}}}"#)
    #expect(push == .push(["numberDetail": ["number": 3]]))
    let sheet = try decoded(AnyRoute.self, #"{"style": "sheet", "withNavigation": true, "screen": "numbersList"}"#)
    #expect(sheet == .sheet("numbersList", withNavigation: true))
    let path = try decoded(CoordinatorPath.self, #"[{"tab": 1}, {"route": 2}]"#)
    #expect(path == [.tab(1), .route(2)])
    let event = try decoded(
      AnyEvent.self,
      #"{"session": "s-42", "seq": 3, "at": "2026-11-21T10:15:30.250Z", "origin": "user", "op": {"op": "goBack", "path": [{"route": 1}]}, "cause": {"routeAction": [2, "backTapped"]}}"#
    )
    #expect(event.session.rawValue == "s-42")
    #expect(event.seq == 3)
    #expect(event.at.rfc3339 == "2026-11-21T10:15:30.250Z")
    #expect(event.origin == .user)
    #expect(event.operation == .goBack(at: [.route(1)]))
    #expect(event.cause == ["routeAction": [2, "backTapped"]])
  }

  @Test func encodingIsNormalized() throws {
    #expect(try canonical(AnyRoute.sheet("s")) == #"{"screen":"s","style":"sheet"}"#)
    #expect(
      try canonical(AnyRoute.cover("c", withNavigation: true))
        == #"{"screen":"c","style":"cover","withNavigation":true}"#)
    #expect(try canonical(AnyOperation.goBack()) == #"{"op":"goBack"}"#)
    #expect(
      try canonical(AnyOperation.goBack(2, at: [.route(1)])) == #"{"count":2,"op":"goBack","path":[{"route":1}]}"#)
    #expect(try canonical(AnyOperation.presentSheet("x")) == #"{"op":"presentSheet","screen":"x"}"#)
    #expect(
      try canonical(AnyCoordinator.tabs([.stack(stack("R"))], selected: 0))
        == #"{"selected":0,"tabs":[{"routes":[{"screen":"root","style":"root"}]}]}"#)
    // Explicit defaults are accepted and normalized away.
    let explicit = try decoded(AnyOperation.self, #"{"op":"dismiss","count":1,"path":[]}"#)
    #expect(try canonical(explicit) == #"{"op":"dismiss"}"#)
  }

  @Test func restoredFromIsWrittenBetweenOpAndStateAndReadBack() throws {
    let link = SessionLink(session: try SessionID("launch-1"), seq: 12)
    let operation = AnyOperation.start(.stack(stack("R+")), restoredFrom: link)
    let text = try canonical(operation)
    #expect(
      text
        == #"{"op":"start","restoredFrom":{"seq":12,"session":"launch-1"},"state":{"routes":[{"screen":"root","style":"root","withNavigation":true}]}}"#
    )
    expectSame(try decoded(AnyOperation.self, text), operation)
    #expect(operation.summary.hasSuffix("restored from launch-1 at seq 12"))
    // Without the link, start is written as before, so earlier hashes still hold.
    #expect(
      try canonical(AnyOperation.start(.stack(stack("R"))))
        == #"{"op":"start","state":{"routes":[{"screen":"root","style":"root"}]}}"#)
  }

  @Test func everyOperationRoundTrips() throws {
    let child: AnyCoordinator = .tabs([.stack(stack("R+t"))], selected: 0)
    let operations: [AnyOperation] = [
      .start(.stack(stack("R+"))),
      .start(.stack(stack("R")), restoredFrom: SessionLink(session: try SessionID("s-0"), seq: 4)),
      .push("p", child: child, at: [.route(0)]), .presentSheet("s", withNavigation: true),
      .presentCover("c", child: .stack(stack("R"))), .goBack(3), .goBackTo(index: 2), .goBackToRoot(), .pop(2),
      .popTo(index: 1), .popToRoot(), .popToCurrentNavigationRoot(), .dismiss(2), .dismissAll(),
      .setRoutes(stack("R", "◻x")), .updateScreen(index: 1, screen: ["deep": [1, 2.5, nil, true]]),
      .selectTab(1, at: [.route(0), .tab(0)]), .setTabs([.stack(stack("R"))], selected: 0),
    ]
    for operation in operations {
      let text = try canonical(operation)
      let back = try decoded(AnyOperation.self, text)
      expectSame(back, operation, "\(text)")
    }
  }

  @Test func typedScreensUseTheirSynthesizedCodableShape() throws {
    let event = NavigationEvent<AppScreen>(
      session: try SessionID("s-1"), seq: 1, at: Timestamp(millisecondsSince1970: 0),
      operation: .push(.numberDetail(number: 3)))
    let text = try canonical(event)
    #expect(
      text
        == #"{"at":"1970-01-01T00:00:00.000Z","op":{"op":"push","screen":{"numberDetail":{"number":3}}},"origin":"app","seq":1,"session":"s-1"}"#
    )
    expectSame(try decoded(NavigationEvent<AppScreen>.self, text), event)
    // The same text read untyped names the screen by its enum case.
    let untyped = try decoded(AnyEvent.self, text)
    guard case .push(let screen, _) = untyped.operation.kind else {
      Issue.record("expected a push")
      return
    }
    #expect(ScreenName.of(screen) == "numberDetail")
  }

  @Test func foundationCodersAgreeWithTheWireFormat() throws {
    let state: Coordinator<AppScreen> = .stack([
      .root(.home, withNavigation: true),
      .sheet(.numbersList, withNavigation: true, child: .tabs([.stack([.root(.onboarding(step: 1))])], selected: 0)),
      .push(.numberDetail(number: 7)),
    ])
    let data = try JSONEncoder().encode(state)
    expectSame(try JSONDecoder().decode(Coordinator<AppScreen>.self, from: data), state)
    expectSame(try WireFormat.decode(Coordinator<AppScreen>.self, from: Array(data)), state)
    let untyped = try JSONDecoder().decode(AnyCoordinator.self, from: data)
    expectSame(untyped, try WireFormat.decode(AnyCoordinator.self, from: Array(data)))
    // Foundation's decoder applies the same strictness.
    let bad = Data(#"{"routes":[{"style":"root","screen":"home","extra":1}]}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(AnyCoordinator.self, from: bad) }
  }

  @Test func timestampsAreUTCWithMilliseconds() throws {
    #expect(try Timestamp(rfc3339: "2026-11-21T10:15:30.250Z").rfc3339 == "2026-11-21T10:15:30.250Z")
    #expect(try Timestamp(rfc3339: "2024-02-29T23:59:59.999Z").millisecondsSince1970 == 1_709_251_199_999)
    #expect(try Timestamp(rfc3339: "1969-12-31T23:59:59.999Z").millisecondsSince1970 == -1)
    #expect(try Timestamp(rfc3339: "1970-01-01T00:00:00.000Z").millisecondsSince1970 == 0)
    #expect(try Timestamp(rfc3339: "0000-01-01T00:00:00.000Z").rfc3339 == "0000-01-01T00:00:00.000Z")
    #expect(try Timestamp(rfc3339: "9999-12-31T23:59:59.999Z").rfc3339 == "9999-12-31T23:59:59.999Z")
    for bad in [
      "2026-02-29T00:00:00.000Z", "2026-11-21T10:15:30.2501Z", "2026-11-21T10:15:30.25Z", "2026-11-21T10:15:30Z",
      "2026-11-21T12:15:30.250+02:00", "2026-11-21t10:15:30.250z", "2026-11-21 10:15:30.250Z",
      "2026-11-21T10:15:30.250",
      "2026-13-01T00:00:00.000Z", "2026-11-21T24:00:00.000Z", "2026-11-21T10:15:60.000Z",
      "2026-11-21T10:15:30.250Zjunk", "",
    ] {
      #expect(throws: TimestampError.self, "\(bad)") { try Timestamp(rfc3339: bad) }
    }
    #expect(throws: WireFormatError.self) { try WireFormat.tree(of: Timestamp(millisecondsSince1970: .max)) }
  }

  @Test func exactIntegersRoundTripAndInexactOnesAreRefused() throws {
    // 2^54 is a double exactly; its canonical text must parse back.
    let big = JSONValue.number(18_014_398_509_481_984)
    #expect(try JSONParser.parse(big.canonicalString) == big)
    #expect(try JSONParser.parse("1000000000000000000000") == .number(1e21))
    #expect(throws: JSONParseError.self) { try JSONParser.parse("18014398509481985") }
    // Integer fields take any exact integer that fits, and encode it back.
    let operation = try WireFormat.decode(AnyOperation.self, from: #"{"op":"goBackTo","index":1e18}"#)
    #expect(operation == .goBackTo(index: 1_000_000_000_000_000_000))
    #expect(try WireFormat.decode(AnyOperation.self, from: try WireFormat.canonicalString(operation)) == operation)
  }

  @Test func stringsAndSessionIDsCompareByTheirBytes() throws {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(JSONValue.string(composed) != JSONValue.string(decomposed))
    #expect(try SessionID(composed) != SessionID(decomposed))
    let states: [AnyCoordinator] = [.stack([.root(.string(composed))]), .stack([.root(.string(decomposed))])]
    #expect(
      try AnyCoordinator.diff(from: states[0], to: states[1]) == [.updateScreen(index: 0, screen: .string(decomposed))])
    #expect(JSONValue.object([composed: 1]) == JSONValue.object([composed: 1]))
  }

  @Test func sessionIDsFollowTheLimits() throws {
    #expect(try SessionID(String(repeating: "é", count: 128)).rawValue.count == 128)
    #expect(throws: SessionIDError.self) { try SessionID("") }
    #expect(throws: SessionIDError.self) { try SessionID(String(repeating: "a", count: 129)) }
    #expect(throws: SessionIDError.self) { try SessionID("tab\there") }
    #expect(throws: SessionIDError.self) { try SessionID("bell\u{85}") }
    // The edges of plain ASCII, which takes a shortcut past the per-character check.
    #expect(try SessionID(String(repeating: "~", count: 128)).rawValue.utf8.count == 128)
    #expect(try SessionID(" ").rawValue == " ")
    #expect(throws: SessionIDError.self) { try SessionID("del\u{7F}") }
    #expect(throws: SessionIDError.self) { try SessionID("nul\u{0}") }
    #expect(throws: SessionIDError.self) { try SessionID("\u{1F}") }
  }
}
