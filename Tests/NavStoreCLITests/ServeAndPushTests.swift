import Foundation
import NavTestSupport
import Testing

/// `navstore serve` as a process on loopback and `navstore push` of the demo to it: the
/// collector's exports equal the demo's; a push again sends nothing; SIGTERM stops it cleanly;
/// a collector killed (SIGKILL) while a push runs is intact, and a push to it restarted
/// completes the rest.
@Suite(.waitsOnProcesses) struct ServeAndPushTests {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    #expect(try NavStoreProcess.run(["demo", "--no-wait", "--db", "demo.sqlite"], in: folder).status == 0)
  }

  @Test func aPushedDemoIsTheDemoOnTheCollector() throws {
    let token = try NavStoreProcess.run(
      ["token", "create", "--app", "demo", "--role", "ingest", "--db", "collector.sqlite"], in: folder
    ).stdout.trimmingCharacters(in: .newlines)
    let server = try CollectorProcess(db: "collector.sqlite", in: folder)
    #expect(server.url.hasPrefix("http://127.0.0.1:"))
    let push = ["push", "--to", server.url, "--token", token, "--db", "demo.sqlite"]
    let first = try NavStoreProcess.run(push, in: folder)
    #expect(
      first.stdout.hasPrefix("pushed 94 events of 10 sessions to ") && first.stdout.contains("94 accepted"),
      "\(first.stderr)")
    let again = try NavStoreProcess.run(push, in: folder)
    #expect(again.stdout.hasPrefix("pushed 0 events to "))
    // Each push asked the heads of its 10 sessions in one request, none session by session.
    let metrics = try DrillHTTP.get(server.url + "/metrics", token: "").text
    #expect(metrics.contains(#"navstore_http_requests_total{endpoint="/v1/heads",status="200"} 2"#), "\(metrics)")
    #expect(!metrics.contains(#"/head",status"#))
    #expect(server.stop(SIGTERM) == 0, "a clean stop")
    for table in ["events", "sessions", "screen-views", "transitions"] {
      let local = try NavStoreProcess.run(
        ["export", "--table", table, "--format", "csv", "--db", "demo.sqlite"], in: folder)
      let collected = try NavStoreProcess.run(
        ["export", "--table", table, "--format", "csv", "--db", "collector.sqlite", "--app", "demo"], in: folder)
      // The same rows, received in other writes.
      #expect(
        withoutReceived(csv: collected.stdout) == withoutReceived(csv: local.stdout) && !local.stdout.isEmpty,
        "\(table)")
    }
    #expect(try NavStoreProcess.run(["verify", "--db", "collector.sqlite", "--app", "demo"], in: folder).status == 0)
  }

  /// A ticket's fixture from the collector, with a read token, is the one the store gives.
  @Test func aFixtureFromTheCollectorIsTheStoresFixture() throws {
    let create = { (role: String) in
      try NavStoreProcess.run(
        ["token", "create", "--app", "demo", "--role", role, "--db", "collector.sqlite"], in: self.folder
      ).stdout.trimmingCharacters(in: .newlines)
    }
    let (ingest, read) = (try create("ingest"), try create("read"))
    let server = try CollectorProcess(db: "collector.sqlite", in: folder)
    #expect(
      try NavStoreProcess.run(["push", "--to", server.url, "--token", ingest, "--db", "demo.sqlite"], in: folder).status
        == 0)
    let remote = try NavStoreProcess.run(
      ["fixture", "demo-killed-relaunch", "--out", "remote.jsonl", "--from", server.url, "--token", read], in: folder)
    #expect(remote.status == 0, "\(remote.stderr)")
    #expect(
      remote.stdoutLines.first == "fixture of 2 sessions (demo-killed, demo-killed-relaunch) written to remote.jsonl")
    let local = try NavStoreProcess.run(
      ["fixture", "demo-killed-relaunch", "--out", "local.jsonl", "--db", "demo.sqlite"], in: folder)
    #expect(local.stdout.replacingOccurrences(of: "local.jsonl", with: "remote.jsonl") == remote.stdout)
    let files = try ["remote", "local"].map { try Data(contentsOf: folder.appendingPathComponent("\($0).jsonl")) }
    #expect(!files[0].isEmpty && files[0] == files[1])
    let unknown = try NavStoreProcess.run(
      ["fixture", "nobody", "--out", "nobody.jsonl", "--from", server.url, "--token", read], in: folder)
    #expect(unknown.status == 1 && unknown.stderr.firstRange(of: "holds no session nobody") != nil, "\(unknown.stderr)")
    let ingestOnly = try NavStoreProcess.run(
      ["fixture", "demo-killed", "--out", "ingest.jsonl", "--from", server.url, "--token", ingest], in: folder)
    #expect(ingestOnly.status == 1 && ingestOnly.stderr.firstRange(of: "403") != nil, "\(ingestOnly.stderr)")
    for name in ["nobody.jsonl", "ingest.jsonl"] {
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
    }
    #expect(server.stop(SIGTERM) == 0)
  }

  /// Batches of 5 lines, two under way at once: sessions longer than a batch go in parts, each
  /// part after the one before is answered, and every line is taken (none a `gap`).
  @Test func aPushInSmallBatchesTakesEverySessionWholeAndInOrder() throws {
    let token = try NavStoreProcess.run(
      ["token", "create", "--app", "demo", "--role", "ingest", "--db", "collector.sqlite"], in: folder
    ).stdout.trimmingCharacters(in: .newlines)
    let server = try CollectorProcess(
      db: "collector.sqlite", in: folder, options: ["--rate", "10000", "--burst", "10000"])
    let push = try NavStoreProcess.run(
      ["push", "--batch", "5", "--to", server.url, "--token", token, "--db", "demo.sqlite"], in: folder)
    #expect(push.status == 0, "\(push.stderr)")
    #expect(
      push.stdout.hasPrefix("pushed 94 events of 10 sessions to ")
        && push.stdout.contains("94 accepted, 0 duplicates, 0 rejected"))
    #expect(server.stop(SIGTERM) == 0)
    #expect(try NavStoreProcess.run(["verify", "--db", "collector.sqlite", "--app", "demo"], in: folder).status == 0)
  }

  @Test func aKilledCollectorIsIntactAndAPushCompletesIt() throws {
    let token = try NavStoreProcess.run(
      ["token", "create", "--app", "demo", "--role", "ingest", "--db", "collector.sqlite"], in: folder
    ).stdout.trimmingCharacters(in: .newlines)
    // One line per request, so that the kill lands between and during uploads.
    var server = try CollectorProcess(db: "collector.sqlite", in: folder)
    let pusher = Process()
    pusher.executableURL = NavStoreProcess.binary
    pusher.arguments = ["push", "--to", server.url, "--token", token, "--db", "demo.sqlite", "--batch", "1"]
    pusher.currentDirectoryURL = folder
    pusher.standardOutput = FileHandle.nullDevice
    pusher.standardError = FileHandle.nullDevice
    try pusher.run()
    Thread.sleep(forTimeInterval: 0.3)
    _ = server.stop(SIGKILL)
    pusher.waitUntilExit()
    // Whatever it held is intact, and a push to the restarted collector completes the rest.
    #expect(try NavStoreProcess.run(["verify", "--db", "collector.sqlite", "--app", "demo"], in: folder).status == 0)
    server = try CollectorProcess(db: "collector.sqlite", in: folder)
    let rest = try NavStoreProcess.run(
      ["push", "--to", server.url, "--token", token, "--db", "demo.sqlite"], in: folder)
    #expect(rest.status == 0, "\(rest.stderr)")
    #expect(server.stop(SIGTERM) == 0)
    let local = try NavStoreProcess.run(
      ["export", "--table", "events", "--format", "csv", "--db", "demo.sqlite"], in: folder)
    let collected = try NavStoreProcess.run(
      ["export", "--table", "events", "--format", "csv", "--db", "collector.sqlite", "--app", "demo"], in: folder)
    #expect(withoutReceived(csv: collected.stdout) == withoutReceived(csv: local.stdout))
  }
}
