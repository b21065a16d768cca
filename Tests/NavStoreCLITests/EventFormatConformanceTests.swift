import Foundation
import NavTestSupport
import Testing

/// `navstore export --format otlp` and `--format segment` on the demo store, through
/// `Tests/Formats/check_event_formats.py`: every OpenTelemetry line parses, with no unknown field,
/// into OpenTelemetry's own `ExportLogsServiceRequest` (`opentelemetry-proto` from PyPI), every
/// Segment line has what Segment's tracking API requires, and both hold one screen event per visit
/// of the screen views.
///
/// They run where `opentelemetry-proto` is installed. CI installs it and sets
/// `NAVSTORE_REQUIRE_OTLP=1`, so there a missing package fails the suite instead of skipping it.
@Suite(
  .waitsOnProcesses,
  .enabled(if: EventFormatCheck.installed || EventFormatCheck.isRequired, "opentelemetry-proto is not installed"))
struct EventFormatConformanceTests {
  @Test func theDemosEventsLoadIntoOpenTelemetryAndSegment() throws {
    let temporary = try TemporaryFolder()
    let folder = temporary.url
    try #require(try NavStoreProcess.run(["demo", "--db", "demo.sqlite"], in: folder).status == 0)
    for (arguments, file) in [
      (["--format", "otlp"], "navigation.otlp.jsonl"), (["--format", "segment"], "navigation.segment.jsonl"),
      (["--table", "screen-views", "--format", "csv"], "views.csv"),
    ] {
      let exported = try NavStoreProcess.run(
        ["export", "--db", "demo.sqlite"] + arguments + ["--out", file], in: folder)
      try #require(exported.status == 0, "\(exported.stderr)")
    }
    let result = try EventFormatCheck.run([
      folder.appendingPathComponent("navigation.otlp.jsonl").path,
      folder.appendingPathComponent("navigation.segment.jsonl").path, folder.appendingPathComponent("views.csv").path,
    ])
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    // The demo's 10 sessions and 79 visits: the check counted what it checked.
    #expect(result.stdout.contains("(79 screen views, 10 sessions), 79 Segment screen calls"), "\(result.stdout)")
  }

  @Test func anotherTableIsRefused() throws {
    let temporary = try TemporaryFolder()
    let refused = try NavStoreProcess.run(
      ["export", "--db", "none.sqlite", "--table", "events", "--format", "otlp"], in: temporary.url)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("use --table screen-views"), "\(refused.stderr)")
  }
}
