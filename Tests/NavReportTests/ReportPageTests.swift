import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavReport
import NavTestSupport
import Testing

/// The report page from Swift: what it shows, that it fetches nothing, and that text from the
/// store is escaped.
@Suite struct ReportPageTests {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder
  let store: SessionStore
  static let base: Int64 = 1_795_000_000_000

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    store = try SessionStore(path: folder.appendingPathComponent("r.sqlite").path)
  }

  func append(
    _ session: String, _ operation: AnyOperation, at offset: Int64, origin: EventOrigin = .app, cause: JSONValue? = nil
  ) throws {
    var event = AnyEvent(
      session: try SessionID(session), at: Timestamp(millisecondsSince1970: Self.base + offset), origin: origin,
      operation: operation)
    event.cause = cause
    try store.append(event)
  }

  /// A session with a push, a sheet over it, a hosted flow, user gestures and causes.
  func seedSession() throws {
    try append("s-1", .start(.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])), at: 0)
    try append(
      "s-1", .push(.object(["numberDetail": .object(["number": .number(3)])])), at: 1_500,
      cause: .object(["tapped": .number(3)]))
    try append("s-1", .presentSheet(.string("settings"), withNavigation: true), at: 4_000, origin: .user)
    try append("s-1", .push(.string("about"), at: .top), at: 4_600)
    try append("s-1", .dismiss(), at: 9_000, origin: .user)
    try append("s-1", .pop(), at: 12_250)
  }

  func page(_ session: String = "s-1", focus: Int? = nil, omitting: Bool = false) throws -> (SessionReport, String) {
    let report = try SessionReport.load(try SessionID(session), from: store, focus: focus, omitsPayloads: omitting)
    return (report, ReportPage.html(report))
  }

  @Test func everyEventsSeqAndEveryScreenNameAppear() throws {
    try seedSession()
    let (report, html) = try page()
    #expect(report.events.count == 6 && report.isWhole)
    for seq in 1...6 { #expect(html.contains("data-seq=\"\(seq)\""), "seq \(seq)") }
    for screen in ["home", "numberDetail", "settings", "about"] { #expect(html.contains(">\(screen)<"), "\(screen)") }
    #expect(html.contains("verified"))
    #expect(html.contains(report.headHash) && report.headHash.count == 64)
  }

  @Test func theTimelinesBarsAddUpToTheSessionsSpan() throws {
    try seedSession()
    let (_, html) = try page()
    let durations = try matches(#"data-ms="(\d+)""#, in: html).compactMap { Int64($0) }
    #expect(durations.count >= 4)
    #expect(durations.reduce(0, +) == 12_250)
    // The sheet is drawn in a lane above the base stack.
    #expect(html.contains("class=\"bar layer1\""))
    // The user's gestures are triangles, the app's changes circles.
    #expect(try matches(#"class="mark (user)""#, in: html).count == 2)
    #expect(try matches(#"class="mark (app)""#, in: html).count == 4)
  }

  /// A device clock that went back: the span and the bars count only forward time, no bar is
  /// drawn backwards, and the facts say what happened.
  @Test func aClockThatWentBackDrawsNoBackwardsBar() throws {
    try append("c", .start(.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])), at: 10_000)
    try append("c", .push(.string("list")), at: 15_000)
    try append("c", .push(.string("detail")), at: 2_000)
    try append("c", .pop(), at: 6_000)
    let (report, html) = try page("c")
    #expect(report.durationMilliseconds == 9_000 && report.clockJumps == 1)
    let durations = try matches(#"data-ms="(-?\d+)""#, in: html).compactMap { Int64($0) }
    #expect(durations == [5_000, 0, 4_000, 0])
    let widths = try matches(#"<rect x="[^"]*" y="[^"]*" width="(-?[0-9.]+)""#, in: html).compactMap { Double($0) }
    #expect(widths.count == 4 && widths.allSatisfy { $0 > 0 })
    #expect(html.contains("<dt>Span</dt><dd>9 s (9000 ms)</dd>"))
    #expect(html.contains("<dt>Clock</dt>") && html.contains("went back once"))
  }

  /// The app away: no bar while it is in the background, a band for the time away, and the
  /// bars add up to the time in the foreground.
  @Test func theTimeInTheBackgroundIsABandNotABar() throws {
    try append("b", .start(.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])), at: 0)
    try append("b", .push(.string("detail")), at: 2_000)
    try append("b", .background, at: 5_000)
    try append("b", .pop(), at: 60_000)  // a notification handled in the background
    try append("b", .foreground, at: 65_000)
    try append("b", .end(reason: "signedOut"), at: 66_000)
    let (report, html) = try page("b")
    #expect(report.events.map(\.phase) == [.foreground, .foreground, .background, .background, .foreground, .ended])
    let durations = try matches(#"data-ms="(-?\d+)""#, in: html).compactMap { Int64($0) }
    #expect(durations == [2_000, 3_000, 1_000], "home, detail until the app left, home after it came back")
    #expect(try matches(#"<g class="away"><title>in the background for ([^<]*)</title>"#, in: html) == ["60 s"])
    #expect(html.contains("the session ended (signedOut)"))
  }

  /// A deep link's screen, arrived at the session's last event, is a bar a reader sees: the axis
  /// runs on past the last event and the bar with it, outlined as still on top; the time it
  /// says is still the session's (0 ms after the last event).
  @Test func theScreenASessionEndsOnIsDrawnWithWidth() throws {
    try append("d", .start(.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])), at: 0)
    try append("d", .push(.string("list")), at: 30_000)
    try append("d", .presentCover(.string("offer"), withNavigation: false), at: 60_000, cause: .string("deepLink"))
    let (_, html) = try page("d")
    let bars = try matches(#"<g class="bar [^"]*"[^>]*>"#, in: html)
    #expect(bars.count == 3)
    #expect(bars.last?.contains("open") == true && bars.dropLast().allSatisfy { !$0.contains("open") })
    #expect(try matches(#"data-ms="(\d+)""#, in: html) == ["30000", "30000", "0"])
    let widths = try matches(#"<rect x="[^"]*" y="[^"]*" width="([0-9.]+)""#, in: html).compactMap { Double($0) }
    #expect(widths.count == 3 && widths[2] > 60, "the cover's bar: \(widths)")
    #expect(html.contains("offer: 0 ms from seq 3, still on top at the last event"))
    // A session that ended leaves nothing on top: no bar runs on.
    try append("d", .end(reason: "closed"), at: 61_000)
    let (_, ended) = try page("d")
    #expect(!ended.contains("class=\"bar layer1 open\"") && !ended.contains(" open\""))
  }

  /// Short visits among long ones still say which screen they were, as far as the bar has room.
  @Test func narrowBarsAreLabelledAsFarAsTheyHaveRoom() throws {
    try append("n", .start(.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])), at: 0)
    try append("n", .push(.string("checkout")), at: 100_000)
    try append("n", .pop(), at: 106_000)
    try append("n", .push(.string("confirmation")), at: 200_000)
    let (_, html) = try page("n")
    let labels = try matches(#"<text class="bar-label"[^>]*>([^<]*)</text>"#, in: html)
    // checkout's bar is about 24 px wide (6 s of 220 s over 880 px): the start of its name.
    #expect(labels.contains("home") && labels.contains { $0.hasPrefix("c") && $0.hasSuffix("…") }, "\(labels)")
    #expect(labels.count == 4, "\(labels)")
  }

  /// The index: the latest activity first, each session's ancestor linked when its page is in
  /// the index (at the seq restored from) and named when not, and a finding box the script shows.
  @Test func theIndexIsLatestFirstWithTheSessionsEachContinues() throws {
    let home = AnyCoordinator.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])
    try append("a-old", .start(home), at: 0)
    try append("a-old", .push(.string("list")), at: 90_000)
    try append("b-new", .start(home, restoredFrom: SessionLink(session: try SessionID("a-old"), seq: 2)), at: 120_000)
    try append("c-mid", .start(home, restoredFrom: SessionLink(session: try SessionID("gone"), seq: 3)), at: 100_000)
    let entries = try store.sessions().map {
      IndexPage.Entry(summary: $0, verified: true, file: $0.id.rawValue + ".html")
    }
    #expect(entries.map(\.summary.id.rawValue) == ["a-old", "b-new", "c-mid"], "the store lists by id")
    let html = IndexPage.html(entries)
    let order = try matches(#"<tr><td><a href="[^"]*">([^<]*)</a>"#, in: html)
    #expect(order == ["b-new", "c-mid", "a-old"])
    #expect(html.contains(#"<td><a href="a-old.html#seq=2">a-old</a> after seq 2</td>"#))
    #expect(html.contains("<td>gone after seq 3</td>"))
    #expect(html.contains(#"<p class="find" id="find-box" hidden>"#) && html.contains(IndexPage.script.html))
  }

  @Test func nothingInThePageReferencesTheNetwork() throws {
    try seedSession()
    let (_, html) = try page()
    for pattern in [
      #"(?i)https?:"#, #"(?i)\bsrc\s*="#, #"(?i)@import"#, #"(?i)url\("#, #"(?i)<link\b"#, #"(?i)fetch\("#,
      #"(?i)XMLHttpRequest"#,
    ] {
      #expect(try matches(pattern, in: html).isEmpty, "\(pattern)")
    }
    #expect(try matches(#"<script>"#, in: html).count == 1, "only the page's own inline script")
    #expect(try matches(#"<script\b"#, in: html).count == 2, "and the states' table, which is data")
    #expect(html.contains(#"<script type="application/json" id="states">"#))
  }

  @Test func textFromTheStoreIsEscaped() throws {
    let hostile = "<script>alert(1)</script>"
    try append(
      "x<b>y", .start(.stack([AnyRoute(style: .root(withNavigation: true), screen: .string(hostile))])), at: 0,
      cause: .string("\"><img onerror=alert(2)>"))
    try append("x<b>y", .push(.object(["name": .string("<i>n</i>"), "note": .string(hostile)])), at: 10)
    let (_, html) = try page("x<b>y")
    #expect(!html.contains(hostile))
    #expect(!html.contains("<b>y"))
    #expect(!html.contains("<img"))
    #expect(!html.contains("<i>n</i>"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(try matches(#"<script>"#, in: html).count == 1)
    // In the states' table, the same text has no character HTML reads as markup.
    #expect(html.contains(#"\u003cscript\u003ealert(1)\u003c/script\u003e"#))
  }

  @Test func payloadsAndCausesCanBeLeftOut() throws {
    try seedSession()
    let (_, full) = try page()
    let (_, omitted) = try page(omitting: true)
    // The pushed screen's payload is in the states' table (as JSON text in a JSON string).
    #expect(full.contains(#"\"number\":3"#) && full.contains("tapped"))
    #expect(!omitted.contains("number\\\"") && !omitted.contains("&quot;number&quot;") && !omitted.contains("tapped"))
    #expect(omitted.contains(">numberDetail<"))
  }

  @Test func theSessionsContextIsAmongTheFactsWithoutItsUserWhenPayloadsAreLeftOut() throws {
    let context = SessionContext(
      appVersion: "2.3.1", appBuild: "412", osName: "iOS", osVersion: "17.5.1", deviceModel: "iPhone15,2",
      locale: "fr_FR", timeZone: "Europe/Paris", userID: "install-<7f3a>", app: ["plan": "pro"])
    try append("c-1", .start(.stack([.root("home")]), context: context), at: 0)
    let (report, full) = try page("c-1")
    #expect(report.context == context)
    #expect(
      full.contains("<dt>App</dt><dd>2.3.1 (build 412)</dd>") && full.contains("<dt>System</dt><dd>iOS 17.5.1</dd>"))
    #expect(full.contains("<dt>Time zone</dt><dd>Europe/Paris</dd>"))
    #expect(full.contains("<dt>User</dt><dd>install-&lt;7f3a&gt;</dd>"), "escaped like every text from the store")
    let (privateReport, omitted) = try page("c-1", omitting: true)
    #expect(privateReport.context?.userID == nil && privateReport.context?.app.isEmpty == true)
    #expect(!omitted.contains("install-") && !omitted.contains("&quot;plan&quot;"))
    #expect(full.contains("&quot;plan&quot;") && omitted.contains("<dt>Device</dt><dd>iPhone15,2</dd>"))
    try seedSession()
    let (_, plain) = try page()
    #expect(!plain.contains("<dt>App</dt>"))
  }

  @Test func theLaunchAndEachRouteItsRestoreDroppedAreAmongTheFacts() throws {
    try seedSession()
    let launch = LaunchRecord(
      outcome: .restored,
      dropped: [.init(path: .top, index: 1, screen: "post<x>", routes: 2, error: "Screen has no case named 'post<x>'")])
    try append(
      "after",
      .start(
        .stack([.root("home", withNavigation: true)]), restoredFrom: .init(session: try SessionID("s-1"), seq: 1),
        context: nil,
        launch: launch), at: 10_000)
    let (report, full) = try page("after")
    #expect(report.launch == launch)
    #expect(full.contains("<dt>Launch</dt><dd>restored, 2 routes dropped<ul class=\"dropped\">"))
    #expect(
      full.contains(
        "<li>route 1 (<code>post&lt;x&gt;</code>) in the top coordinator, with 1 more route: Screen has no case named &#39;post&lt;x&gt;&#39;</li>"
      ), "escaped like every text from the store")
    let (_, omitted) = try page("after", omitting: true)
    #expect(
      omitted.contains("with 1 more route</li>") && !omitted.contains("no case named"),
      "the decoder's words may quote values")
    try append(
      "declined",
      .start(
        .stack([.root("home")]), restoredFrom: nil, context: nil,
        launch: .init(outcome: .declined, reason: "notification")), at: 20_000)
    #expect(try page("declined").1.contains("<dt>Launch</dt><dd>declined (notification)</dd>"))
    let declinedPrivately = try page("declined", omitting: true).1
    #expect(
      declinedPrivately.contains("<dt>Launch</dt><dd>declined</dd>") && !declinedPrivately.contains("notification"),
      "a declined restore's reason is the app's own words")
    #expect(!(try page().1.contains("<dt>Launch</dt>")), "a start that says nothing of its launch")
  }

  @Test func aLongSessionShowsAWindowAroundTheChosenSeq() throws {
    try append("long", .start(.stack([AnyRoute(style: .root(withNavigation: true), screen: .string("home"))])), at: 0)
    for index in 1..<2_500 {
      try append("long", index.isMultiple(of: 2) ? .pop() : .push(.string("detail")), at: Int64(index) * 10)
    }
    let last = try SessionReport.load(try SessionID("long"), from: store)
    #expect(last.events.count == SessionReport.windowSize && last.window == 501...2_500 && last.focus == 2_500)
    let early = try SessionReport.load(try SessionID("long"), from: store, focus: 10)
    #expect(early.window == 1...2_000 && early.focus == 10)
    let html = ReportPage.html(early)
    #expect(html.contains("events 1 to 2000 of 2500"))
    // Too many events to mark one by one: the timeline gives their counts.
    #expect(html.contains(">0 user gestures (&#9650;) and 2000 app changes (&#9679;): too many to mark"))
    #expect(!html.contains("class=\"mark "))
    // A window that stops before the session's end runs no bar on past it; one at the end does.
    #expect(!html.contains(" open\"") && !html.contains(", still on top at the last event</title>"))
    #expect(ReportPage.html(last).contains(", still on top at the last event</title>"))
    #expect(throws: StoreError.self) { try SessionReport.load(try SessionID("long"), from: store, focus: 2_501) }
  }

  @Test func fileNamesAreSafeAndDistinct() throws {
    let ids = ["s-1", "a/b", "a_b", "../etc", ".hidden", "é 会话", String(repeating: "x", count: 128)]
    let names = try ids.map { ReportFileName.of(try SessionID($0)) }
    #expect(Set(names).count == names.count)
    #expect(names.first == "s-1.html")
    for name in names {
      #expect(!name.hasPrefix("."))
      #expect(
        name.unicodeScalars.allSatisfy {
          CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0)
        })
      #expect(name.count <= 100)
    }
  }

  @Test func indexIsReservedAndNamesThatWouldCollideGetACounter() throws {
    #expect(ReportFileName.of(try SessionID("index")) != "index.html")
    var taken: Set<String> = ["index.html"]
    let names = try ["Demo", "demo", "a_b", "a b"].map { ReportFileName.unique(try SessionID($0), taken: &taken) }
    #expect(Set(names.map { $0.lowercased() }).count == 4, "\(names)")
    #expect(names[0] == "Demo.html" && names[1] == "demo-2.html")
  }

  private func matches(_ pattern: String, in text: String) throws -> [String] {
    let regex = try NSRegularExpression(pattern: pattern)
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
      let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
      return Range(range, in: text).map { String(text[$0]) } ?? ""
    }
  }
}
