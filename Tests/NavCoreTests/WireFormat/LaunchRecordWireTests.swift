import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// A `start`'s optional `launch`: what the launch that began the session did, written
/// canonically, read back as written, and refused when it disagrees with `restoredFrom`.
struct LaunchRecordWireTests {
  static let home = #"{"routes":[{"screen":"home","style":"root"}]}"#
  static let link = SessionLink(session: sessionID("s-1"), seq: 12)

  @Test func aRestoreThatDroppedRoutesIsWrittenWithItsKeysSortedAndReadBack() throws {
    let launch = LaunchRecord(
      outcome: .restored,
      dropped: [
        .init(
          path: [.route(0), .tab(1)], index: 2, screen: "post", routes: 3,
          error: "ScreenV2 has no case named 'post'")
      ])
    let operation = AnyOperation.start(.stack([.root("home")]), restoredFrom: Self.link, context: nil, launch: launch)
    let text = try canonical(operation)
    #expect(
      text
        == #"{"launch":{"dropped":[{"error":"ScreenV2 has no case named 'post'","index":2,"path":[{"route":0},{"tab":1}],"routes":3,"screen":"post"}],"outcome":"restored"},"op":"start","restoredFrom":{"seq":12,"session":"s-1"},"state":\#(Self.home)}"#
    )
    #expect(try decoded(AnyOperation.self, text) == operation)
    #expect(try decoded(AnyOperation.self, text).launch == launch)
    #expect("\(launch)" == "restored, 3 routes dropped")
    #expect(
      operation.summary
        == "start with a stack of 1 route, restored from s-1 at seq 12; launch: restored, 3 routes dropped")
  }

  @Test func aStartWithoutALaunchIsWrittenAsBefore() throws {
    #expect(try canonical(AnyOperation.start(.stack([.root("home")]))) == #"{"op":"start","state":\#(Self.home)}"#)
    #expect(try decoded(AnyOperation.self, #"{"op":"start","state":\#(Self.home)}"#).launch == nil)
  }

  @Test func aDeclinedRestoreKeepsTheAppsWordAndRestoredNothing() throws {
    let launch = LaunchRecord(outcome: .declined, reason: "notificationOpened")
    let operation = AnyOperation.start(.stack([.root("home")]), restoredFrom: nil, context: nil, launch: launch)
    let text = try canonical(operation)
    #expect(
      text == #"{"launch":{"outcome":"declined","reason":"notificationOpened"},"op":"start","state":\#(Self.home)}"#)
    #expect(try decoded(AnyOperation.self, text) == operation)
    #expect("\(launch)" == "declined (notificationOpened)")
  }

  @Test(arguments: [
    (#""launch":{"outcome":"restored"}"#, "names the session in restoredFrom"),
    (#""launch":{"outcome":"restoredRoots"}"#, "names the session in restoredFrom"),
    (
      #""launch":{"outcome":"fresh"},"restoredFrom":{"session":"a","seq":1}"#,
      "restored nothing: leave restoredFrom out"
    ),
    (
      #""launch":{"outcome":"declined","dropped":[{"path":[],"index":1,"screen":"x","routes":1,"error":"e"}]}"#,
      "a declined launch dropped nothing"
    ),
    (#""launch":{"outcome":"lost"}"#, #"unknown outcome "lost""#),
    (#""launch":{}"#, "outcome"),
    (#""launch":{"outcome":"fresh","why":"x"}"#, #"unknown field "why" in launch"#),
    (#""launch":{"outcome":"fresh","reason":""}"#, "reason must be 1 to 256 characters, not 0"),
    (
      #""launch":{"outcome":"restored","dropped":[]},"restoredFrom":{"session":"a","seq":1}"#,
      "dropped must not be empty: leave it out"
    ),
    (
      #""launch":{"outcome":"restored","dropped":[{"path":[],"index":1,"screen":"x","routes":0,"error":"e"}]},"restoredFrom":{"session":"a","seq":1}"#,
      "routes"
    ),
    (
      #""launch":{"outcome":"restored","dropped":[{"path":[],"index":1,"screen":"x","routes":1}]},"restoredFrom":{"session":"a","seq":1}"#,
      "error"
    ),
  ])
  func aLaunchThatDisagreesWithItselfOrItsStartIsRefused(members: String, message: String) {
    let text = #"{"op":"start","state":\#(Self.home),\#(members)}"#
    #expect {
      try decoded(AnyOperation.self, text)
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func moreDroppedRoutesThanTheLimitAreCutWhenMadeAndRefusedWhenRead() throws {
    let route = DroppedRoute(path: [], index: 1, screen: "x", routes: 1, error: "e")
    let many = Array(repeating: route, count: LaunchRecord.maximumDroppedRoutes + 5)
    #expect(LaunchRecord(outcome: .restored, dropped: many).dropped.count == LaunchRecord.maximumDroppedRoutes)
    let listed = Array(repeating: #"{"path":[],"index":1,"screen":"x","routes":1,"error":"e"}"#, count: 101)
    let text =
      #"{"op":"start","state":\#(Self.home),"restoredFrom":{"session":"a","seq":1},"launch":{"outcome":"restored","dropped":[\#(listed.joined(separator: ","))]}}"#
    #expect {
      try decoded(AnyOperation.self, text)
    } throws: { error in
      "\(error)".contains("dropped lists at most 100 routes")
    }
  }

  @Test func longTextIsCutAndEmptyTextLeftOutWhenARecordIsMade() {
    let long = String(repeating: "é", count: 300)
    let record = LaunchRecord(
      outcome: .restored, reason: "",
      dropped: [.init(path: [], index: 1, screen: long, routes: 1, error: "")])
    #expect(record.reason == nil)
    #expect(record.dropped[0].screenName.unicodeScalars.count == 256)
    #expect(record.dropped[0].error.description == "does not decode")
  }

  /// A reason is kept in a text column of its own (PostgreSQL's text holds no NUL), and a
  /// count of dropped routes is added up: control characters in a reason and counts past a
  /// state's routes are refused when read, and left out or held to the bound when made.
  @Test func aReasonHoldsNoControlCharacterAndACountNoMoreThanAStatesRoutes() throws {
    let made = LaunchRecord(
      outcome: .declined, reason: "note\u{0}\u{7}book\n",
      dropped: [])
    #expect(made.reason == "notebook")
    let huge = LaunchRecord(
      outcome: .restored, dropped: [.init(path: [], index: 1, screen: "x", routes: .max, error: "e")])
    #expect(huge.droppedRouteCount == TreeLimits.routes)
    func read(_ launch: String) -> String {
      let line =
        #"{"session":"s","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"style":"root","screen":"home"}]},"#
        + #""restoredFrom":{"session":"r","seq":1},"launch":"# + launch + "}}"
      do {
        _ = try WireFormat.decode(AnyEvent.self, from: line)
        return "read"
      } catch {
        return error.description
      }
    }
    #expect(read(#"{"outcome":"restored","reason":"a\u0000b"}"#).contains("reason must not hold a control character"))
    #expect(
      read(#"{"outcome":"restored","dropped":[{"path":[],"index":1,"screen":"x","routes":10001,"error":"e"}]}"#)
        .contains("routes"))
    #expect(
      read(#"{"outcome":"restored","dropped":[{"path":[],"index":1,"screen":"x","routes":10000,"error":"e"}]}"#)
        == "read")
  }

  @Test func randomLaunchesRoundTrip() async {
    let texts = ["tooOld", "é 🧭", String(repeating: "x", count: 256), "\"quoted\"\n"]
    let launches = Generator<LaunchRecord, Shrink.None<LaunchRecord>> { rng in
      let outcome = LaunchRecord.Outcome.allCases.randomElement(using: &rng) ?? .restored
      let restores = outcome == .restored || outcome == .restoredRoots
      let dropped: [DroppedRoute] =
        restores
        ? (0..<Int.random(in: 0...4, using: &rng)).map { _ in
          let path: CoordinatorPath =
            Bool.random(using: &rng) ? [] : [.route(Int.random(in: 0...3, using: &rng)), .tab(1)]
          let index = Int.random(in: 0...9, using: &rng)
          let screen = texts.randomElement(using: &rng) ?? "x"
          let routes = Int.random(in: 1...40, using: &rng)
          let error = texts.randomElement(using: &rng) ?? "e"
          return DroppedRoute(path: path, index: index, screen: screen, routes: routes, error: error)
        } : []
      return LaunchRecord(
        outcome: outcome, reason: Bool.random(using: &rng) ? texts.randomElement(using: &rng) : nil, dropped: dropped)
    }
    await checkProperty(count: 200, input: launches) { launch in
      let restores = launch.outcome == .restored || launch.outcome == .restoredRoots
      let operation = AnyOperation.start(
        .stack([.root("home")]), restoredFrom: restores ? Self.link : nil, context: nil, launch: launch)
      let text = try canonical(operation)
      #expect(try decoded(AnyOperation.self, text) == operation)
      #expect(try canonical(decoded(AnyOperation.self, text)) == text)
      // The opposite link is refused when written, as it would be when read.
      let wrong = AnyOperation.start(
        .stack([.root("home")]), restoredFrom: restores ? nil : Self.link, context: nil, launch: launch)
      #expect(throws: (any Error).self) { try canonical(wrong) }
    }
  }
}
