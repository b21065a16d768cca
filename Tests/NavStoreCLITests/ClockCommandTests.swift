import Foundation
import NavTestSupport
import Testing

/// The issue-19 case as a new user met it: an event dated 2020 after events of 2026 is kept as
/// claimed, and nothing the commands print or export goes negative.
@Suite(.waitsOnProcesses) struct ClockCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    let start = #"{"op":"start","state":{"routes":[{"style":"root","withNavigation":true,"screen":"home"}]}}"#
    for (op, time) in [
      (start, "2026-11-21T10:00:00.000Z"), (#"{"op":"push","screen":"list"}"#, "2026-11-21T10:00:05.000Z"),
      (#"{"op":"push","screen":"detail"}"#, "2020-01-01T00:00:00.000Z"), (#"{"op":"pop"}"#, "2020-01-01T00:00:03.000Z"),
    ] {
      let appended = try navstore("append", "s", "--op", op, "--at", time)
      try #require(appended.status == 0, "\(appended.stderr)")
    }
  }

  @Test func aClockThatWentBackIsReportedNotNegative() throws {
    let listed = try navstore("sessions")
    #expect(listed.stdoutLines.last?.contains("      8.0s      2           1  -") == true, "\(listed.stdout)")
    let json = try navstore("sessions", "--json")
    #expect(
      json.stdoutLines == [
        #"{"session":"s","events":4,"first_at":"2026-11-21T10:00:00.000Z","last_at":"2020-01-01T00:00:03.000Z","duration_ms":8000,"depth":2,"restored_from_session":null,"restored_from_seq":null,"clock_jumps":1,"app_version":null,"app_build":null,"os_name":null,"os_version":null,"device_model":null,"locale":null,"time_zone":null,"user_id":null,"app_context":null,"foreground_ms":8000,"phase":"foreground","launch":null,"launch_reason":null,"dropped_routes":0,"local_start":null,"received":5,"journey_id":"s","screen_count":4}"#
      ])
    let verified = try navstore("verify")
    #expect(verified.status == 0)
    #expect(
      verified.stdoutLines == [
        "s: note: the clock went back once, first at seq 3 (times kept as recorded)",
        "verified 1 session, 4 events: 0 problems; 1 session with the clock going back",
      ])
    for table in ["sessions", "screen-views"] {
      let csv = try navstore("export", "--table", table, "--format", "csv")
      #expect(csv.status == 0 && !csv.stdout.contains(",-"), "\(table): \(csv.stdout)")
    }
    let history = try navstore("history", "s")
    #expect(history.stdoutLines.map { $0.hasSuffix("  (clock went back)") } == [false, false, true, false])
    #expect(try navstore("history", "s", "--from", "3").stdoutLines.first?.hasSuffix("  (clock went back)") == true)
    #expect(try navstore("report", "--all", "--out", "reports").status == 0)
    let index = try String(contentsOf: folder.appendingPathComponent("reports/index.html"), encoding: .utf8)
    #expect(index.contains("<td>8 s</td>") && !index.contains(">-"), "the index's span is the forward time")
    let views = try navstore("export", "--table", "screen-views", "--format", "csv")
    #expect(
      views.stdout.components(separatedBy: "\r\n").map {
        // duration_ms and clock_went_back, before the payload and restored columns
        $0.split(separator: ",", omittingEmptySubsequences: false).dropFirst(5).prefix(2).joined(separator: ",")
      }
      .dropFirst().dropLast() == [
        "5000,false", "0,true", "3000,false", "0,false",
      ])
  }
}
