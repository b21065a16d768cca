import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

@testable import NavFleet

/// Each session's journey is the first session of the chain of restores it continues, whatever
/// order the sessions arrive in (a relaunch uploaded before the session it restores, chains in
/// one upload, a session restored that never arrives), on a store file and on PostgreSQL shared by
/// two collectors taking uploads at once; the screen views carry their session's.
@Suite struct SessionJourneyTests {
  /// Sessions that restore one another, and the uploads that bring them.
  struct Forest {
    /// Each session's id and the session its start restores, if any.
    var sessions: [(id: String, restores: String?)]
    /// The uploads, in order: each a few sessions' whole lines.
    var uploads: [[String]]

    /// The journey the rules give each session once every upload arrived: the first of its
    /// chain, or the session restored that never arrived.
    var expected: [String: String] {
      let links = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, $0.restores) })
      return Dictionary(
        uniqueKeysWithValues: sessions.map { session in
          var first = session.id
          while let link = links[first] ?? nil {
            first = link
            if links[link] == nil { break }
          }
          return (session.id, first)
        })
    }
  }

  static let start = Timestamp(millisecondsSince1970: 1_795_000_000_000)

  static func lines(of id: String, restoring link: String?, index: Int) -> [String] {
    let at = Timestamp(millisecondsSince1970: start.millisecondsSince1970 + Int64(index) * 60_000)
    let restored = link.map { #","restoredFrom":{"session":"\#($0)","seq":1}"# } ?? ""
    let home = #"{"routes":[{"screen":"home","style":"root","withNavigation":true}]}"#
    return [
      #"{"session":"\#(id)","seq":1,"at":"\#(at.rfc3339)","op":{"op":"start","state":\#(home)\#(restored)}}"#,
      #"{"session":"\#(id)","seq":2,"at":"\#(Timestamp(millisecondsSince1970: at.millisecondsSince1970 + 1_000).rfc3339)","op":{"op":"push","screen":"cart"}}"#,
    ]
  }

  static func forest(using rng: inout some RandomNumberGenerator) -> Forest {
    var sessions: [(id: String, restores: String?)] = []
    for index in 0..<Int.random(in: 1...9, using: &rng) {
      let link: String? =
        index > 0 && Int.random(in: 0..<4, using: &rng) > 0
        ? sessions[Int.random(in: 0..<index, using: &rng)].id
        : (Int.random(in: 0..<5, using: &rng) == 0 ? "gone-\(index)" : nil)
      sessions.append(("j\(index)", link))
    }
    var order = sessions.indices.shuffled(using: &rng)
    var uploads: [[String]] = []
    while !order.isEmpty {
      let count = min(order.count, Int.random(in: 1...3, using: &rng))
      uploads.append(
        order.prefix(count).flatMap { lines(of: sessions[$0].id, restoring: sessions[$0].restores, index: $0) })
      order.removeFirst(count)
    }
    return Forest(sessions: sessions, uploads: uploads)
  }

  static let forests = Generator<Forest, Shrink.None<Forest>> { rng in forest(using: &rng) }

  /// The journey of every session in the sessions export and in the screen views.
  static func exportedJourneys(_ store: SessionStore) throws -> (
    sessions: [String: String], views: [String: Set<String>]
  ) {
    var sessions: [String: String] = [:]
    try store.export(.sessions) { row in
      let values = Dictionary(uniqueKeysWithValues: zip(ExportTable.sessions.columns, row.values))
      if case .text(let id)? = values["session"], case .text(let journey)? = values["journey_id"] {
        sessions[id] = journey
      }
    }
    var views: [String: Set<String>] = [:]
    try store.export(.screenViews) { row in
      let values = Dictionary(uniqueKeysWithValues: zip(ExportTable.screenViews.columns, row.values))
      if case .text(let id)? = values["session"], case .text(let journey)? = values["journey_id"] {
        views[id, default: []].insert(journey)
      }
    }
    return (sessions, views)
  }

  @Test func aJourneyIsTheFirstOfItsChainWhateverTheOrderOfArrivalOnAFile() async throws {
    await checkProperty(count: 80, input: Self.forests) { forest in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("j.sqlite"))
      for upload in forest.uploads {
        let outcome = try store.ingest(upload.map { ArraySlice(Array($0.utf8)) })
        #expect(outcome.rejected.isEmpty)
      }
      let (sessions, views) = try Self.exportedJourneys(store)
      #expect(sessions == forest.expected, "\(forest.sessions)")
      for (session, journeys) in views {
        #expect(journeys == [forest.expected[session] ?? ""], "\(session)'s views carry its journey")
      }
      #expect(views.count == forest.sessions.count)
    }
  }

  @Test(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
  func aJourneyIsTheFirstOfItsChainWhateverTheOrderOfArrivalOnPostgreSQL() async throws {
    await checkProperty(count: 25, input: Self.forests) { forest in
      let one = try await PostgresTestFleet()
      let two = try await one.another()
      // Two devices' uploads at once, one collector each: the order of arrival is the race's.
      let app = one.app
      let rejected = try await withThrowingTaskGroup(of: Int.self) { group in
        for (lane, collector) in [one.fleet, two.fleet].enumerated() {
          group.addTask {
            var rejected = 0
            for (index, upload) in forest.uploads.enumerated() where index % 2 == lane {
              rejected += try await collector.ingest(upload.map { ArraySlice(Array($0.utf8)) }, app: app).rejected.count
            }
            return rejected
          }
        }
        return try await group.reduce(0, +)
      }
      #expect(rejected == 0)
      var journeys: [String: String] = [:]
      for session in forest.sessions {
        journeys[session.id] = try await one.fleet.summary(of: sessionID(session.id), app: one.app).journey
      }
      #expect(journeys == forest.expected, "\(forest.sessions)")
      var views: [UInt8] = []
      try await one.fleet.export(.screenViews, format: .csv, filter: ExportFilter(), app: one.app) { views += $0 }
      let rows = String(decoding: views, as: UTF8.self).components(separatedBy: "\r\n").dropFirst().filter {
        !$0.isEmpty
      }
      #expect(rows.count == forest.sessions.count * 2)
      for row in rows {
        let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(fields[fields.count - 2] == forest.expected[fields[0]], "\(row)")
      }
    }
  }

  /// The rule alone: chains within one upload resolve through one another, a loop begins its
  /// own journeys, and only sessions restoring another move anyone.
  @Test func theRuleResolvesChainsLoopsAndSessionsNotHeld() {
    let restoring: [SessionID: SessionID?] = [
      sessionID("c"): sessionID("b"), sessionID("b"): sessionID("a"), sessionID("a"): sessionID("z"),
      sessionID("x"): sessionID("y"), sessionID("y"): sessionID("x"), sessionID("n"): nil,
    ]
    let firsts = SessionJourney.firsts(of: restoring, stored: [sessionID("z"): "root"])
    #expect(firsts[sessionID("c")] == "root" && firsts[sessionID("b")] == "root" && firsts[sessionID("a")] == "root")
    #expect(firsts[sessionID("n")] == "n")
    #expect(firsts[sessionID("x")] != nil && firsts[sessionID("x")] == firsts[sessionID("y")])
    let notHeld = SessionJourney.firsts(of: [sessionID("d"): sessionID("gone")], stored: [:])
    #expect(notHeld[sessionID("d")] == "gone")
    #expect(SessionJourney.moves([sessionID("n"): "n", sessionID("d"): "gone"]).map(\.from) == ["d"])
    // A stored session whose journey is a session arriving in the same upload: the chain goes on
    // through it, and every move of the upload lands on the final first.
    let through = SessionJourney.firsts(
      of: [sessionID("j0"): sessionID("gone"), sessionID("j3"): sessionID("j1"), sessionID("j9"): sessionID("j8")],
      stored: [sessionID("j1"): "j0", sessionID("j8"): "j9"])
    #expect(through[sessionID("j3")] == "gone" && through[sessionID("j0")] == "gone")
    #expect(through[sessionID("j9")] == "j9", "a loop through the store begins its own journey")
    #expect(SessionJourney.moves(through).allSatisfy { $0.to == "gone" || $0.to == "j9" })
  }
}
