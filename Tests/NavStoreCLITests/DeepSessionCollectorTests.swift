import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// The deepest session anyone holding the ingest token can make costs a collector what was
/// sent, on SQLite and on PostgreSQL: pushes past the wire format's stack limit are refused
/// (`illegal`, naming the limit); an 11,000-event session 1,000 routes deep is then listed by a
/// screen filter, reported, verified and exported in a few seconds at most, with its snapshots
/// and exported rows linear in its events.
@Suite(.waitsOnProcesses) struct DeepSessionCollectorTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// `count` lines of the session `deep` without seqs (each takes the next), from `operations`.
  static func lines(_ operations: [String], at second: Int) -> Data {
    let text = operations.map {
      #"{"session":"deep","at":"2026-11-21T10:\#(String(format: "%02d", second % 60)):00.000Z","op":\#($0)}"#
    }
    return Data((text.joined(separator: "\n") + "\n").utf8)
  }

  /// The answer of a read, which must come within `seconds`.
  func read(_ url: String, token: String, within seconds: Double = 30) throws -> DrillHTTP.Answer {
    let started = ContinuousClock.now
    let answer = try DrillHTTP.get(url, token: token, timeout: seconds)
    #expect(ContinuousClock.now - started < .seconds(seconds), "\(url)")
    return answer
  }

  @Test(arguments: ["sqlite", "postgres"])
  func aDeepSessionCostsTheCollectorWhatWasSent(engine: String) throws {
    if engine == "postgres", !TestPostgres.runs { return }
    var db = "collector.sqlite"
    var app = "drill"
    if engine == "postgres" {
      db = try #require(TestPostgres.url)
      app = TestPostgres.uniqueApp("deep")
      #expect(try navstore(["init", "--db", db]).status == 0)
    }
    func token(_ role: String) throws -> String {
      try navstore(["token", "create", "--app", app, "--role", role, "--db", db]).stdout
        .trimmingCharacters(in: .newlines)
    }
    let ingest = try token("ingest")
    let reader = try token("read")
    let server = try serve(db: db)

    // The attack as it was made: a start and 14,999 pushes in three uploads. The stack takes
    // 1,000 routes; the 1,001st push is refused, naming the limit, and the rest of each upload
    // with it.
    let start = #"{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}"#
    let pushes = (1..<15_000).map { #"{"op":"push","screen":"s\#($0)"}"# }
    let attack = [start] + pushes
    var accepted = 0
    for (index, upload) in stride(from: 0, to: attack.count, by: 5_000).enumerated() {
      let answer = try DrillHTTP.post(
        server.url + "/v1/events", token: ingest, body: Self.lines(Array(attack[upload..<upload + 5_000]), at: index))
      #expect(answer.status == 200, "\(answer.text.prefix(300))")
      let outcome = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
      accepted += outcome?["accepted"] as? Int ?? 0
      let first = (outcome?["rejected"] as? [[String: Any]])?.first
      #expect(first?["reason"] as? String == "illegal", "\(answer.text.prefix(300))")
      #expect((first?["message"] as? String)?.contains("1,000 routes in one stack") == true)
    }
    #expect(accepted == 1_000)

    // Then a pop and a push in turn, 10,000 events at the limit's depth, in two uploads.
    for round in 0..<2 {
      let operations = (0..<5_000).map {
        $0.isMultiple(of: 2) ? #"{"op":"pop"}"# : #"{"op":"push","screen":"t\#(round)-\#($0)"}"#
      }
      let answer = try DrillHTTP.post(
        server.url + "/v1/events", token: ingest, body: Self.lines(operations, at: 10 + round))
      #expect(answer.status == 200 && answer.text.hasPrefix(#"{"accepted":5000,"#), "\(answer.text.prefix(300))")
    }

    // Every read of it answers: a screen it never showed, a screen it did, verification, its
    // report, the console's list, and the views' export.
    let none = try read(server.url + "/v1/sessions?screen=nowhere", token: reader)
    #expect(none.status == 200 && none.text == #"{"sessions":[],"next":null}"# + "\n", "\(none.text.prefix(300))")
    let some = try read(server.url + "/v1/sessions?screen=s999", token: reader)
    #expect(some.status == 200 && some.text.contains(#""session":"deep""#))
    let failing = try read(server.url + "/v1/sessions?failing=false", token: reader)
    #expect(failing.status == 200 && failing.text.contains(#""session":"deep""#))
    let report = try read(server.url + "/v1/sessions/deep/report", token: reader)
    #expect(report.status == 200 && report.text.contains("verified (hash chain, seqs, snapshots)"))
    let views = try read(server.url + "/v1/export/screen-views?format=csv", token: reader)
    #expect(views.status == 200)
    // About one row per event, of a screen's name and a path of at most 12 names.
    #expect(views.body.count / 11_000 < 300, "\(views.body.count) bytes of screen views")

    // The snapshots of 11,000 events 1,000 routes deep stay within what replaying them saves:
    // each event's operation and `WorkBudget.unitsPerEvent`, twice the operations at most.
    let (snapshots, operations): (Int, Int)
    if engine == "postgres" {
      let sums = try TestPostgres.psql(
        "SELECT (SELECT sum(octet_length(state)) FROM snapshots WHERE app = '\(app)') || ' ' || "
          + "(SELECT sum(octet_length(op)) FROM events WHERE app = '\(app)')"
      ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
      (snapshots, operations) = (sums.first ?? -1, sums.last ?? -1)
    } else {
      let store = try SQLiteConnection(path: folder.path("collector.apps/drill.sqlite"), mode: .readOnly)
      snapshots = Int(try store.integer("SELECT sum(length(state)) FROM snapshots") ?? -1)
      operations = Int(try store.integer("SELECT sum(length(op)) FROM events") ?? -1)
    }
    let bound = 11_000 * WorkBudget.unitsPerEvent + 2 * operations
    #expect(operations > 0 && snapshots <= bound, "\(snapshots) bytes of snapshots, \(operations) of operations")
    #expect(server.stop(SIGTERM) == 0)
  }
}
