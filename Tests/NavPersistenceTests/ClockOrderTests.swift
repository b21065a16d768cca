import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// Times as the device claimed them: an event earlier than the one before it is kept
/// and flagged, durations count only the clock going forward, and no export has a negative one.
@Suite struct ClockOrderTests {
  let folder: TemporaryFolder
  let store: SessionStore

  init() throws {
    folder = try TemporaryFolder()
    store = try SessionStore(path: folder.path("s.sqlite"))
  }

  func rows(_ table: ExportTable, _ filter: ExportFilter = ExportFilter()) throws -> [[String: ExportValue]] {
    var rows: [[String: ExportValue]] = []
    try store.export(table, filter: filter) { row in
      rows.append(Dictionary(uniqueKeysWithValues: zip(table.columns, row.values)))
    }
    return rows
  }

  func at(_ offset: Int64) -> ExportValue { .time(Timestamp(millisecondsSince1970: 1_795_000_000_000 + offset)) }

  /// Home; list 10 s later; the clock goes back 6 s for detail; more at that same time (another
  /// action); a back swipe 16 s later.
  func seedBackwardsAndEqualTimes() throws {
    var events = [
      event("s", .start(.stack(stack("R+home")))), event("s", .push("list"), offset: 10_000),
      event("s", .push("detail"), offset: 4_000), event("s", .push("more"), offset: 4_000),
      event("s", .goBack(), offset: 20_000, origin: .user),
    ]
    events[1].cause = "tapList"
    events[2].cause = "tapRow"
    events[3].cause = "tapMore"
    for event in events { try store.append(event) }
  }

  @Test func backwardsAndEqualTimesInEveryTable() throws {
    try seedBackwardsAndEqualTimes()
    #expect(
      try rows(.events).map { $0["clock_went_back"] } == [false, false, true, false, false].map(ExportValue.boolean))
    #expect(try rows(.events).map { $0["occurred_at"] } == [0, 10_000, 4_000, 4_000, 20_000].map(at))

    let session = try #require(try rows(.sessions).first)
    #expect(session["duration_ms"] == .integer(10_000 + 16_000), "forward time only, never last - first")
    #expect(session["clock_jumps"] == .integer(1))
    #expect(session["first_at"] == at(0) && session["last_at"] == at(20_000), "times as claimed")

    let views = try rows(.screenViews)
    #expect(views.map { $0["screen"] } == ["home", "list", "detail", "more", "detail"].map(ExportValue.text))
    #expect(views.map { $0["duration_ms"] } == [10_000, 0, 0, 16_000, 0].map(ExportValue.integer))
    #expect(views.map { $0["clock_went_back"] } == [false, true, false, false, false].map(ExportValue.boolean))
    #expect(views[1]["entered_at"] == at(10_000) && views[1]["exited_at"] == at(4_000), "the claimed times stay")

    let transitions = try rows(.transitions)
    #expect(transitions.map { $0["to_screen"] } == ["home", "list", "detail", "more", "detail"].map(ExportValue.text))
    #expect(transitions.map { $0["seq"] } == [1, 2, 3, 4, 5].map(ExportValue.integer))
    #expect(transitions.map { $0["clock_went_back"] } == [false, false, true, false, false].map(ExportValue.boolean))

    let verified = try #require(try store.verify().first)
    #expect(verified.isIntact && verified.clockJumps == 1 && verified.firstClockJump == 3)
    let summary = try store.summary(of: sessionID("s"))
    #expect(summary.clockJumps == 1 && summary.durationMilliseconds == 26_000)
  }

  /// A session that fails verification still says how often its clock went back before the
  /// problem.
  @Test func aFailingSessionCountsItsClockJumpsUpToTheProblem() throws {
    try seedBackwardsAndEqualTimes()
    let connection = try SQLiteConnection(path: folder.path("s.sqlite"), mode: .readWrite(create: false))
    try connection.execute(
      "DROP TRIGGER events_are_append_only_update; UPDATE events SET op = replace(op, 'more', 'less') WHERE seq = 4")
    let verified = try #require(try store.verify().first)
    #expect(verified.failure?.seq == 4)
    #expect(verified.clockJumps == 1 && verified.firstClockJump == 3)
  }

  /// The event before a row may be filtered out; it was then earlier than `since`, so the
  /// row's flag is still the event's own.
  @Test func flagsHoldUnderSinceAndSessionFilters() throws {
    try seedBackwardsAndEqualTimes()
    let since = Timestamp(millisecondsSince1970: 1_795_000_000_000 + 4_000)
    let filtered = try rows(.events, ExportFilter(session: sessionID("s"), since: since))
    #expect(filtered.map { $0["seq"] } == [2, 3, 4, 5].map(ExportValue.integer))
    #expect(filtered.map { $0["clock_went_back"] } == [false, true, false, false].map(ExportValue.boolean))
    let text = String(
      decoding: try ExportEncodedTests.encoded(store, .events, .csv, ExportFilter(since: since)), as: UTF8.self)
    #expect(
      text.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map { $0.contains(",true,") } == [
        false, true, false, false,
      ])
  }

  /// Random sessions under a clock that goes forward, stands still and goes back: the stored
  /// counters, every export and `verify` agree with a model of the times, and no duration is
  /// negative. Half are imported (the two-thread pipeline), half appended one by one.
  @Test func randomClocksNeverGiveANegativeDuration() async throws {
    let scenarios = Generator<[[AnyEvent]], Shrink.None<[[AnyEvent]]>> { rng in
      (0..<Int.random(in: 1...3, using: &rng)).map { index in
        var events = RandomSession.make(id: "r\(index)", using: &rng, length: Int.random(in: 2...120, using: &rng))
          .events
        var time: Int64 = 1_795_000_000_000
        let causes: [JSONValue?] = [nil, "a", "b"]
        for position in events.indices {
          switch Int.random(in: 0..<10, using: &rng) {
          case 0...1: time -= Int64.random(in: 1...5_000, using: &rng)
          case 2...4: break
          default: time += Int64.random(in: 1...10_000, using: &rng)
          }
          events[position].at = Timestamp(millisecondsSince1970: time)
          events[position].cause = causes.randomElement(using: &rng) ?? nil
        }
        return events
      }
    }
    await checkProperty(count: 30, input: scenarios) { sessions in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("r.sqlite"))
      let all = sessions.flatMap { $0 }
      if all.count % 2 == 0 {
        try store.importJSONLines(from: LinesInMemory(try all.map { try WireFormat.canonicalString($0) }))
      } else {
        for event in all { try store.append(event) }
      }
      var exported: [ExportTable: [[String: ExportValue]]] = [:]
      for table in ExportTable.allCases {
        try store.export(table) { row in
          exported[table, default: []].append(Dictionary(uniqueKeysWithValues: zip(table.columns, row.values)))
        }
      }
      for durations in [exported[.sessions], exported[.screenViews]] {
        for row in durations ?? [] {
          guard case .integer(let duration)? = row["duration_ms"] else {
            Issue.record("no duration in \(row)")
            continue
          }
          #expect(duration >= 0)
        }
      }
      for events in sessions {
        let id = events[0].session
        let backwards = zip(events.dropFirst(), events).map { $0.at < $1.at }
        let forward = zip(events.dropFirst(), events).reduce(Int64(0)) {
          $0 + max(0, $1.0.at.millisecondsSince1970 - $1.1.at.millisecondsSince1970)
        }
        let summary = try store.summary(of: id)
        #expect(summary.clockJumps == backwards.count(where: { $0 }) && summary.durationMilliseconds == forward)
        let verified = try store.verify([id])
        #expect(verified.first?.isIntact == true && verified.first?.clockJumps == summary.clockJumps)
        #expect(verified.first?.firstClockJump == backwards.firstIndex(of: true).map { $0 + 2 })
        // Every gap belongs to the view visible during it, when one is.
        let views = (exported[.screenViews] ?? []).filter { $0["session"] == .text(id.rawValue) }
        let viewTotal = views.reduce(Int64(0)) { total, view in
          if case .integer(let duration)? = view["duration_ms"] { total + duration } else { total }
        }
        let replayed = try store.history(of: id).reduce(into: [AnyCoordinator]()) { states, event in
          if let state = try? event.operation.apply(to: states.last) { states.append(state) }
        }
        if replayed.allSatisfy({ $0.visibleScreen != nil }) {
          #expect(viewTotal == forward, "\(id): the views add up to the session's duration")
        } else {
          #expect(viewTotal <= forward)
        }
        if backwards.contains(true), replayed.allSatisfy({ $0.visibleScreen != nil }) {
          #expect(views.contains { $0["clock_went_back"] == .boolean(true) }, "\(id): a view says the clock went back")
        }
      }
      // The events table's flags, in (session, seq) order: ids r0, r1, r2 sort as made.
      let modelFlags = sessions.flatMap { events in [false] + zip(events.dropFirst(), events).map { $0.at < $1.at } }
      #expect(exported[.events]?.map { $0["clock_went_back"] } == modelFlags.map(ExportValue.boolean))
    }
  }
}
