import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NavContract
@_spi(Internals) import NavCore
import NavFleet
import NavJSON
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

@testable import NavCollector

/// The console's overview of a fleet: its figures are the exports' (events per day from the
/// events table, views from the screen-views table), it reads no more than its limits and says
/// so, it names the sessions that fail verification, and it shows an app only its own. And the
/// verification the session list shows, within its page's budget.
@Suite struct ConsoleFleetTests {
  /// 2026-11-10T00:00:00Z: the first day of the sessions below.
  static let firstDay: Int64 = 1_794_268_800_000
  static let day: Int64 = 86_400_000

  /// Sessions over ten days, each event up to 90 s after the one before, now and then going to
  /// the background and back.
  static func sessions(count: Int, using rng: inout some RandomNumberGenerator) -> [[AnyEvent]] {
    (0..<count).map { index in
      let random = RandomSession.make(
        id: "f\(index)-\(UInt32.random(in: 0...UInt32.max, using: &rng))", using: &rng,
        length: Int.random(in: 1...30, using: &rng))
      var at = firstDay + Int64.random(in: 0..<10, using: &rng) * day + Int64.random(in: 0..<day, using: &rng)
      var events: [AnyEvent] = []
      var inBackground = false
      for event in random.events {
        if !events.isEmpty, Int.random(in: 0..<6, using: &rng) == 0 {
          events.append(
            AnyEvent(
              session: event.session, seq: nil, at: Timestamp(millisecondsSince1970: at), origin: .app,
              operation: inBackground ? .foreground : .background))
          inBackground.toggle()
        }
        at += Int64.random(in: 0...90_000, using: &rng)
        var timed = event
        timed.at = Timestamp(millisecondsSince1970: at)
        events.append(timed)
      }
      return events.enumerated().map { position, event in
        var numbered = event
        numbered.seq = position + 1
        return numbered
      }
    }
  }

  /// A collector's store with `sessions` uploaded to app `shop`.
  static func backend(_ folder: TemporaryFolder, with sessions: [[AnyEvent]]) async throws -> SQLiteBackend {
    let fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    // A token makes the app.
    _ = try fleet.createToken(app: AppName("shop"), role: .ingest)
    let backend = SQLiteBackend(fleet: fleet, logger: Logger(label: "test"))
    let lines = try sessions.joined().map { ArraySlice(try WireFormat.canonicalBytes($0)) }
    let outcome = try await backend.ingest(lines, app: try AppName("shop"), signedBy: nil, datedUpTo: .now)
    #expect(outcome.lines.allSatisfy { if case .accepted = $0.outcome { true } else { false } })
    return backend
  }

  /// One of the app's tables, as JSON Lines objects.
  static func exported(_ table: ExportTable, from backend: SQLiteBackend) async throws -> [[String: JSONValue]] {
    var bytes: [UInt8] = []
    try await backend.export(table, format: .jsonl, filter: ExportFilter(), app: try AppName("shop")) { bytes += $0 }
    return try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
      try #require(try JSONParser.parse(String($0)).objectValue)
    }
  }

  static func time(_ value: JSONValue?) throws -> Int64 {
    try Timestamp(rfc3339: try #require(value?.stringValue)).millisecondsSince1970
  }

  @Test func theFiguresAreTheExports() async throws {
    await checkProperty(count: 8, input: Gen.int(in: 0...Int(UInt32.max)), Gen.int(in: 3...14)) { seed, dayCount in
      var rng = SeededRandom(seed: UInt64(seed))
      let folder = try TemporaryFolder()
      let backend = try await Self.backend(folder, with: Self.sessions(count: 14, using: &rng))
      // The day after the sessions' ten (no session is dated past the window, which the
      // overview would leave out), with the window short enough that some fall before it.
      let now = Timestamp(millisecondsSince1970: Self.firstDay + 11 * Self.day + 3_600_000)
      // Time enough for a loaded machine: the figures are what is checked here, and the time
      // limit has a test of its own.
      let overview = try await FleetOverview.make(
        app: try AppName("shop"), dayCount: dayCount, now: now, backend: backend,
        limits: FleetOverview.Limits(time: .seconds(120)))
      let since = Self.firstDay + Int64(12 - dayCount) * Self.day
      #expect(overview.since.millisecondsSince1970 == since)
      #expect(overview.days.count == dayCount && overview.complete)

      // Events per day, and sessions per day of their first event, from the events table.
      var events = [Int64: Int]()
      var starts = [Int64: Int]()
      for row in try await Self.exported(.events, from: backend) {
        let at = try Self.time(row["at"])
        guard at >= since else { continue }
        events[at / Self.day, default: 0] += 1
        if row["seq"] == .number(1) { starts[at / Self.day, default: 0] += 1 }
      }
      for day in overview.days {
        #expect(day.events == events[day.number, default: 0], "events on \(day.label)")
        #expect(day.sessions == starts[day.number, default: 0], "sessions on \(day.label)")
      }

      // Views of the sessions active in the window, from the screen-views table.
      var active = Set<String>()
      for row in try await Self.exported(.sessions, from: backend) where try Self.time(row["last_at"]) >= since {
        active.insert(try #require(row["session"]?.stringValue))
      }
      #expect(overview.sessionsRead == active.count)
      var views = [String: [Int64]]()
      for row in try await Self.exported(.screenViews, from: backend)
      where active.contains(row["session"]?.stringValue ?? "") {
        guard case .number(let milliseconds)? = row["duration_ms"] else { continue }
        views[try #require(row["screen"]?.stringValue), default: []].append(Int64(milliseconds))
      }
      // The most visited: each with its count, and none left out that has more views.
      let listed = Set(overview.mostVisited.map(\.screen))
      #expect(overview.mostVisited.count == min(views.count, FleetOverview.screensShown))
      for figure in overview.mostVisited {
        let times = try #require(views[figure.screen]).sorted()
        #expect(figure.views == times.count)
        #expect(figure.medianMilliseconds == times[(times.count - 1) / 2])
      }
      let fewest = overview.mostVisited.map(\.views).min() ?? 0
      #expect(views.filter { !listed.contains($0.key) }.allSatisfy { $0.value.count <= fewest })
      // The slowest: medians of screens with enough views, none left out that is slower.
      let ranked = views.filter { $0.value.count >= FleetOverview.viewsForMedian }
      #expect(overview.slowest.count == min(ranked.count, FleetOverview.screensShown))
      #expect(overview.slowest.allSatisfy { $0.views >= FleetOverview.viewsForMedian })
      let quickest = overview.slowest.map(\.medianMilliseconds).min() ?? 0
      let slowestListed = Set(overview.slowest.map(\.screen))
      for (screen, times) in ranked where !slowestListed.contains(screen) {
        #expect(times.sorted()[(times.count - 1) / 2] <= quickest, "\(screen) is slower than a screen listed")
      }
      #expect(overview.failing.isEmpty)
    }
  }

  @Test func anOverviewReadsNoMoreThanItsLimitsAndSaysSo() async throws {
    var rng = SeededRandom(seed: 7)
    let folder = try TemporaryFolder()
    let sessions = Self.sessions(count: 9, using: &rng)
    let backend = try await Self.backend(folder, with: sessions)
    // Days after the last session's, so that the window holds every event.
    let now = Timestamp(millisecondsSince1970: Self.firstDay + 12 * Self.day)
    var limits = FleetOverview.Limits()
    limits.sessions = 3
    let few = try await FleetOverview.make(
      app: try AppName("shop"), dayCount: 30, now: now, backend: backend, limits: limits)
    #expect(few.sessionsRead == 3 && !few.complete)
    #expect(few.days.map(\.sessions).reduce(0, +) == 3)
    // The latest three, by their last event.
    let latest = sessions.sorted { ($0.last?.at ?? now) > ($1.last?.at ?? now) }.prefix(3)
    #expect(few.days.map(\.events).reduce(0, +) == latest.map(\.count).reduce(0, +))
    let page = ConsoleFleetPage.page(
      few, days: 30, app: "shop", rejections: [], rejectionsSince: now
    ).description
    #expect(page.contains("From the latest 3 sessions"))
    #expect(page.contains("at most 3 sessions"))

    limits = FleetOverview.Limits()
    limits.events = sessions.map(\.count).max() ?? 0
    let capped = try await FleetOverview.make(
      app: try AppName("shop"), dayCount: 30, now: now, backend: backend, limits: limits)
    #expect(!capped.complete)
    #expect(capped.days.map(\.events).reduce(0, +) <= limits.events)
    // The latest session longer than what the budget holds: passed over, and the reading goes
    // on with the sessions after it that fit (one long session, kept the latest, once left
    // the overview empty).
    let byLastActivity = sessions.sorted { ($0.last?.at ?? now) > ($1.last?.at ?? now) }
    limits.events = max(1, (byLastActivity.first?.count ?? 1) - 1)
    var read = 0
    var budget = 0
    for session in byLastActivity where budget < limits.events && budget + session.count <= limits.events {
      read += 1
      budget += session.count
    }
    let passed = try await FleetOverview.make(
      app: try AppName("shop"), dayCount: 30, now: now, backend: backend, limits: limits)
    #expect(!passed.complete && passed.sessionsRead == read, "\(passed.sessionsRead) read, \(read) fit")
    let all = try await FleetOverview.make(app: try AppName("shop"), dayCount: 30, now: now, backend: backend)
    #expect(all.complete && all.sessionsRead == 9)
  }

  @Test func aSessionThatFailsVerificationIsNamedAndLinked() async throws {
    var rng = SeededRandom(seed: 11)
    let folder = try TemporaryFolder()
    let sessions = Self.sessions(count: 4, using: &rng).map { Array($0.prefix(1)) }
    let backend = try await Self.backend(folder, with: sessions)
    // Its stored start has another time than the one its hash was made of.
    let damaged = try #require(sessions.first?.first?.session)
    let path = SQLiteFleet.path(of: try AppName("shop"), inFleetAt: folder.path("collector.sqlite"))
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      DROP TRIGGER events_are_append_only_update;
      UPDATE events SET at = at + 1 WHERE session_id = '\(damaged.rawValue)' AND seq = 1
      """)
    let now = Timestamp(millisecondsSince1970: Self.firstDay + 9 * Self.day + 3_600_000)
    let overview = try await FleetOverview.make(app: try AppName("shop"), dayCount: 30, now: now, backend: backend)
    #expect(overview.failing == [damaged])
    let page = ConsoleFleetPage.page(
      overview, days: 30, app: "shop", rejections: [], rejectionsSince: now
    ).description
    #expect(page.contains(#"href="\#(ConsolePages.sessionPath(damaged))""#))
  }

  @Test func theListSaysWhetherEachSessionVerifiesWithinItsBudget() async throws {
    var rng = SeededRandom(seed: 3)
    let folder = try TemporaryFolder()
    let sessions = Self.sessions(count: 3, using: &rng).map { Array($0.prefix(4)) }
    let backend = try await Self.backend(folder, with: sessions)
    let damaged = try #require(sessions.first?.last)
    let path = SQLiteFleet.path(of: try AppName("shop"), inFleetAt: folder.path("collector.sqlite"))
    try SQLiteConnection(path: path, mode: .readWrite(create: false)).execute(
      "DROP TRIGGER events_are_append_only_update; "
        + "UPDATE events SET at = at + 1 WHERE session_id = '\(damaged.session.rawValue)' AND seq = \(damaged.seq ?? 0)"
    )
    let rows: [[String: JSONValue]] = sessions.map {
      ["session": .string($0[0].session.rawValue), "events": .number(Double($0.count))]
    }
    let ids = sessions.map { $0[0].session.rawValue }
    let shop = try AppName("shop")
    let all = try await ConsoleSessionList.verification(of: rows, filteredBy: nil, app: shop, backend: backend)
    #expect(all == [ids[0]: .fails(seq: damaged.seq), ids[1]: .verifies, ids[2]: .verifies])
    // A budget for the first two only (what verifying each costs, and a unit more): the third
    // is cut short, and says so.
    var budget = 1
    for id in ids.prefix(2) {
      budget += try await backend.verify(sessionID(id), app: shop, within: WorkBudget(units: .max)).budget.spent
    }
    let some = try await ConsoleSessionList.verification(
      of: rows, filteredBy: nil, app: shop, backend: backend, work: budget)
    #expect(some == [ids[0]: .fails(seq: damaged.seq), ids[1]: .verifies, ids[2]: .unchecked])
    // Filtered by verification, what the filter found stands for the rows past the budget.
    let failing = try await ConsoleSessionList.verification(
      of: rows, filteredBy: true, app: shop, backend: backend, work: 0)
    #expect(failing.count == 3 && failing.values.allSatisfy { $0 == .fails(seq: nil) })
    let verifying = try await ConsoleSessionList.verification(
      of: rows, filteredBy: false, app: shop, backend: backend)
    #expect(verifying.count == 3 && verifying.values.allSatisfy { $0 == .verifies })
  }

  @Test func thePageNeedsASignInAndShowsOnlyTheTokensApp() async throws {
    let folder = try TemporaryFolder()
    let fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    let ingest = try fleet.createToken(app: AppName("shop"), role: .ingest).text
    let reader = try fleet.createToken(app: AppName("shop"), role: .read).text
    let otherReader = try fleet.createToken(app: AppName("blog"), role: .read).text
    // A moment ago (the overview reads up to now), on today's date.
    let now = Timestamp.now.millisecondsSince1970
    let moment = Timestamp(millisecondsSince1970: max(now - 60_000, now / 86_400_000 * 86_400_000)).rfc3339
    let lines = [
      #"{"session":"t-1","seq":1,"at":"\#(moment)","op":{"op":"start","state":{"routes":[{"screen":"<i>home</i>","style":"root","withNavigation":true}]}}}"#,
      #"{"session":"t-1","seq":2,"at":"\#(moment)","op":{"op":"fly"}}"#,
    ]
    let app = Application(router: Collector.router(fleet: fleet))
    try await app.test(.router) { client in
      try await client.execute(uri: "/console/fleet", method: .get) { response in
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/console/sign-in?next=%2Fconsole%2Ffleet")
      }
      try await client.execute(
        uri: "/v1/events", method: .post,
        headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
        body: ByteBuffer(string: lines.joined(separator: "\n"))
      ) { #expect($0.status == .ok) }
      let mine = try await client.execute(
        uri: "/console/fleet?days=7", method: .get,
        headers: [.cookie: try await ConsoleTests.signIn(client, with: reader)]
      ) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentSecurityPolicy] == ConsoleEndpoints.pagePolicy)
        return String(buffer: response.body)
      }
      // The screen's markup is text; the rejected line is counted for its app.
      #expect(mine.contains("&lt;i&gt;home&lt;/i&gt;") && !mine.contains("<i>home"))
      #expect(mine.contains("<title>invalid: 1 line</title>"))
      #expect(mine.contains(#"<option value="7" selected>"#))
      let theirs = try await client.execute(
        uri: "/console/fleet", method: .get,
        headers: [.cookie: try await ConsoleTests.signIn(client, with: otherReader)]
      ) { String(buffer: $0.body) }
      #expect(!theirs.contains("home") && !theirs.contains("invalid"))
      #expect(theirs.contains("No line was rejected."))
      try await client.execute(
        uri: "/console/fleet?days=365", method: .get,
        headers: [.cookie: try await ConsoleTests.signIn(client, with: reader)]
      ) { #expect($0.status == .badRequest) }
    }
  }
}
