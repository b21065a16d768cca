import Foundation
import NavContract
import NavCore
import NavFleet
import NavPersistence
import NavTestSupport
import NavUpload
import Testing

/// `navstore serve` as an operator runs it: a store file removed or replaced under it, a
/// backup of the whole collector, tokens with labels, expiry and last use, metrics and logs a
/// monitoring system reads, and the reads support needs (filters, percent-encoded ids, a long
/// session's report in bounded memory); and a second device that tries to extend a session it
/// did not start.
@Suite(.waitsOnProcesses) struct CollectorOperationsTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  func upload(_ lines: [String], to server: CollectorProcess, token: String) throws -> DrillHTTP.Answer {
    try DrillHTTP.post(server.url + "/v1/events", token: token, body: Data(lines.joined(separator: "\n").utf8))
  }

  // MARK: Store files

  @Test func aStoreFileRemovedWhileServingTakesNoUploadAndStopsTheNextStart() throws {
    let ingest = try token("ingest")
    let log = folder.path("serve.log")
    let server = try serve(log: log)
    #expect(
      try upload(SessionLines.make(prefix: "before", sessions: 2, events: 3), to: server, token: ingest).status == 200)
    #expect(try NavStoreProcess.shell("rm -f '\(folder.path("collector.apps/drill.sqlite"))'*") == 0)
    let after = try upload(SessionLines.make(prefix: "after", sessions: 1, events: 2), to: server, token: ingest)
    #expect(after.status == 503 && after.text.contains(#""error":"unavailable""#), "\(after.status) \(after.text)")
    #expect(after.header("Retry-After") != nil)
    let ready = try DrillHTTP.get(server.url + "/readyz", token: "")
    #expect(ready.status == 503 && ready.text.contains(#""error":"unavailable""#))
    #expect(server.stop(SIGTERM) == 0)
    let text = try String(contentsOfFile: log, encoding: .utf8)
    #expect(text.contains("collector.apps/drill.sqlite was removed while serving"), "\(text)")
    // The app has tokens and no file: the collector will not start on an empty store for it.
    let restart = try navstore(["serve", "--db", "collector.sqlite", "--listen", "127.0.0.1:0"])
    #expect(restart.status != 0)
    #expect(restart.stderr.contains("'drill'") && restart.stderr.contains("whose file is missing"), "\(restart.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("collector.apps/drill.sqlite")), "no empty store made")
  }

  /// Devices upload while the app's file is replaced by an earlier copy: from then on nothing is
  /// acknowledged (each upload is a 503), so after a restart on the file that is there, every
  /// line acknowledged for a request sent after the replacement is in it.
  @Test func aStoreFileReplacedWhileDevicesUploadLosesNoAcknowledgedLine() throws {
    let ingest = try token("ingest")
    let server = try serve(["--max-open-per-client", "8", "--rate", "100000", "--burst", "100000"])
    let port = server.url
    let appFile = folder.path("collector.apps/drill.sqlite")
    #expect(
      try upload(SessionLines.make(prefix: "first", sessions: 1, events: 5), to: server, token: ingest).status == 200)
    let replaced = Protected(false)
    let stop = Protected(false)
    let acknowledgedAfter = Acknowledged()
    let statusesAfter = Protected<[Int]>([])
    let group = DispatchGroup()
    for device in 0..<4 {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        // Each device sends batches of new sessions until it is told to stop.
        var batchNumber = 0
        while !stop.withLock({ $0 }) {
          let batch = SessionLines.make(prefix: "device-\(device)-\(batchNumber)", sessions: 2, events: 10)
          batchNumber += 1
          let sentAfter = replaced.withLock { $0 }
          guard
            let answer = try? DrillHTTP.post(
              port + "/v1/events", token: ingest, body: Data(batch.joined(separator: "\n").utf8))
          else { continue }
          if sentAfter {
            statusesAfter.withLock { $0.append(answer.status) }
            if answer.status == 200 { acknowledgedAfter.add(batch, answer: answer.body) }
          }
        }
      }
    }
    Thread.sleep(forTimeInterval: 0.5)
    // An earlier copy of the app's file, put in its place as a restore from a backup would.
    #expect(try navstore(["backup", "--db", "collector.apps/drill.sqlite", "--out", "copy.sqlite"]).status == 0)
    #expect(rename(folder.path("copy.sqlite"), appFile) == 0)
    replaced.withLock { $0 = true }
    Thread.sleep(forTimeInterval: 1)
    stop.withLock { $0 = true }
    group.wait()
    let after = statusesAfter.withLock { $0 }
    #expect(!after.isEmpty && after.allSatisfy { $0 == 503 }, "\(after)")
    #expect(server.stop(SIGTERM) == 0)
    // The write-ahead log beside the file is the replaced file's: removed, as the restore guide
    // says, before the collector starts again.
    #expect(try NavStoreProcess.shell("rm -f '\(appFile)-wal' '\(appFile)-shm'") == 0)
    // Restarted on the file that is there now: it serves, verifies, and holds every line that
    // was acknowledged after the replacement (none was).
    let restarted = try serve()
    #expect(try DrillHTTP.get(restarted.url + "/readyz", token: "").status == 200)
    #expect(restarted.stop(SIGTERM) == 0)
    let verified = try navstore(["verify", "--db", "collector.sqlite", "--app", "drill"])
    #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
    let stored = try navstore([
      "export", "--table", "events", "--format", "csv", "--db", "collector.sqlite", "--app", "drill",
    ])
    let keys = Set(stored.stdoutLines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") })
    #expect(acknowledgedAfter.keys.isSubset(of: keys))
  }

  @Test func aBackupOfAWholeCollectorIsServedAsItIs() throws {
    let drill = try token("ingest")
    let shop = try token("ingest", app: "shop")
    let drillReader = try token("read")
    let shopReader = try token("read", app: "shop")
    let server = try serve()
    #expect(try upload(SessionLines.make(prefix: "d", sessions: 3, events: 4), to: server, token: drill).status == 200)
    #expect(try upload(SessionLines.make(prefix: "s", sessions: 2, events: 6), to: server, token: shop).status == 200)
    let backup = try navstore(["backup", "--db", "collector.sqlite", "--out", "copy.sqlite"])
    #expect(backup.status == 0, "\(backup.stderr)")
    #expect(backup.stdout.contains("backup of 3 apps written to copy.sqlite"), "\(backup.stdout)")
    #expect(
      backup.stdout.contains("drill: 3 sessions and 12 events")
        && backup.stdout.contains("shop: 2 sessions and 12 events"))
    let listings = try [drillReader, shopReader].map { try DrillHTTP.get(server.url + "/v1/sessions", token: $0).text }
    #expect(server.stop(SIGTERM) == 0)
    // The copy is a collector: served as it is, with the same tokens and sessions.
    let copy = try serve(db: "copy.sqlite")
    let copied = try [drillReader, shopReader].map { try DrillHTTP.get(copy.url + "/v1/sessions", token: $0).text }
    #expect(copied == listings)
    #expect(copy.stop(SIGTERM) == 0)
    #expect(
      try navstore(["backup", "--db", "collector.sqlite", "--out", "copy.sqlite"]).status != 0, "never over a file")
  }

  // MARK: Devices

  @Test func aSecondDeviceCannotAppendToASessionItDidNotStart() async throws {
    let ingest = try token("ingest")
    // A device's store, recorded as an app records: its sessions' starts name its key.
    let device = try SessionStore(path: folder.path("device.sqlite"))
    let recorder = NavigationRecorder<JSONValue>(store: device, session: try SessionID("mine"))
    recorder.record(.stack([.root("home", withNavigation: true)]))
    recorder.record(.stack([.root("home", withNavigation: true), .push("detail")]))
    try await recorder.flush()
    let server = try serve()
    let pushed = try navstore(["push", "--db", "device.sqlite", "--to", server.url, "--token", ingest])
    #expect(pushed.status == 0 && pushed.stdout.contains("2 accepted"), "\(pushed.stdout) \(pushed.stderr)")
    let forged = #"{"session":"mine","seq":3,"at":"2026-11-21T10:00:00.000Z","op":{"op":"push","screen":"forged"}}"#
    let other = DeviceSigner.generated()
    let body = Array(forged.utf8)
    let signed = try DrillHTTP.post(
      server.url + "/v1/events", token: ingest, body: Data(body), headers: try other.headers(for: body))
    #expect(signed.status == 200 && signed.text.contains(#""reason":"wrong-device""#), "\(signed.text)")
    let file = folder.path("forged.jsonl")
    try forged.write(toFile: file, atomically: true, encoding: .utf8)
    let fromFile = try navstore(["push", file, "--to", server.url, "--token", ingest])
    #expect(fromFile.status == 1 && fromFile.stderr.contains("wrong-device"), "\(fromFile.stderr)")
    #expect(server.stop(SIGTERM) == 0)
    let history = try navstore(["history", "mine", "--db", "collector.sqlite", "--app", "drill", "--json"])
    #expect(history.stdoutLines.count == 2 && !history.stdout.contains("forged"))
  }

  // MARK: Reads

  /// Ids that a URL must percent-encode: stored through `push`, read back through every
  /// endpoint, and found again by a second `push` (which sends nothing).
  @Test func idsThatNeedPercentEncodingRoundTrip() throws {
    let ingest = try token("ingest")
    let reader = try token("read")
    let ids = ["sp ace", "séance-ü-日本-🚀", "a/b", "..", ".", "%2e%2e", "100%", "q?x#y", "plus+sign"]
    let lines = ids.flatMap { id in
      SessionLines.make(prefix: "x", sessions: 1, events: 3).map { line in
        line.replacingOccurrences(of: #""session":"x-0""#, with: #""session":\#(JSONValue.string(id).canonicalString)"#)
      }
    }
    try lines.joined(separator: "\n").write(toFile: folder.path("ids.jsonl"), atomically: true, encoding: .utf8)
    #expect(try navstore(["import", "ids.jsonl", "--db", "device.sqlite"]).status == 0)
    let server = try serve()
    let first = try navstore(["push", "--db", "device.sqlite", "--to", server.url, "--token", ingest])
    #expect(first.status == 0 && first.stdout.contains("pushed 27 events of 9 sessions"), "\(first.stdout)")
    for id in ids {
      let path = server.url + "/v1/sessions/" + ContractPath.segment(id)
      let head = try DrillHTTP.get(path + "/head", token: reader)
      #expect(head.status == 200 && head.text.contains(#""session":\#(JSONValue.string(id).canonicalString)"#), "\(id)")
      #expect(try DrillHTTP.get(path + "/history", token: reader).text.split(separator: "\n").count == 3, "\(id)")
      #expect(try DrillHTTP.get(path + "/state?at=2", token: reader).status == 200, "\(id)")
      #expect(try DrillHTTP.get(path + "/report", token: reader).status == 200, "\(id)")
    }
    // `%2e%2e` in a path is `..`, decoded once: not the session named `%2e%2e`.
    let dots = try RawConnection(port: server.port)
    dots.send("GET /v1/sessions/%2e%2e/head HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(reader)\r\n\r\n")
    #expect(dots.answer(within: 5).body.contains(#""session":"..""#))
    let again = try navstore(["push", "--db", "device.sqlite", "--to", server.url, "--token", ingest])
    #expect(again.status == 0 && again.stdout.hasPrefix("pushed 0 events"), "\(again.stdout)")
    #expect(server.stop(SIGTERM) == 0)
  }

  @Test func theSessionsListingTakesTheCommandLinesFilters() throws {
    let ingest = try token("ingest")
    let reader = try token("read")
    func start(_ id: String, version: String, day: Int, screen: String) -> String {
      #"{"session":"\#(id)","seq":1,"at":"2026-11-\#(day)T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"\#(screen)","style":"root","withNavigation":true}]},"context":{"appVersion":"\#(version)"}}}"#
    }
    let server = try serve()
    let lines = [
      start("a", version: "2.3.1", day: 20, screen: "home"), start("b", version: "2.3.1", day: 22, screen: "cart"),
      start("c", version: "2.4.0", day: 22, screen: "home"),
    ]
    #expect(try upload(lines, to: server, token: ingest).status == 200)
    func ids(_ query: String) throws -> [String] {
      let answer = try DrillHTTP.get(server.url + "/v1/sessions" + query, token: reader)
      #expect(answer.status == 200, "\(query): \(answer.text)")
      let value = try WireFormat.decode(JSONValue.self, from: Array(answer.body))
      guard case .array(let sessions)? = value.objectValue?["sessions"] else { return [] }
      return sessions.compactMap { session -> String? in
        guard case .string(let id)? = session.objectValue?["session"] else { return nil }
        return id
      }
    }
    #expect(try ids("?app_version=2.3.1") == ["b", "a"])
    #expect(try ids("?screen=cart") == ["b"])
    #expect(try ids("?since=2026-11-21") == ["c", "b"])
    #expect(try ids("?until=2026-11-21T00:00Z") == ["a"])
    #expect(try ids("?since=2026-11-22T11:00:00%2B02:00&sort=id") == ["b", "c"])
    #expect(try ids("?restored=true") == [])
    // Pages by id, one session each, follow their cursors to the end.
    var seen: [String] = []
    var query = "?sort=id&limit=1"
    while true {
      let answer = try DrillHTTP.get(server.url + "/v1/sessions" + query, token: reader)
      let value = try WireFormat.decode(JSONValue.self, from: Array(answer.body))
      if case .array(let page)? = value.objectValue?["sessions"],
        case .string(let id)? = page.first?.objectValue?["session"]
      {
        seen.append(id)
      }
      guard case .string(let next)? = value.objectValue?["next"] else { break }
      query = "?sort=id&limit=1&after=" + next
    }
    #expect(seen == ["a", "b", "c"])
    // A parameter the endpoint does not take is a 400 that names it, never ignored.
    for bad in ["?appversion=2.3.1", "?since=yesterday", "?limit=0", "?sort=name", "?app_version="] {
      let answer = try DrillHTTP.get(server.url + "/v1/sessions" + bad, token: reader)
      #expect(answer.status == 400 && answer.text.contains(#""error":"bad-query""#), "\(bad): \(answer.text)")
    }
    #expect(try DrillHTTP.get(server.url + "/v1/limits?x=1", token: reader).status == 400)
    #expect(server.stop(SIGTERM) == 0)
  }

  /// A legal 5,000-event session whose stack is as long as the wire format allows (1,000
  /// routes) at its middle: its report, from the endpoint, is under 10 MB, and the collector's
  /// memory stays under 128 MiB while it writes it.
  @Test func aFiveThousandEventSessionsReportIsBoundedOnTheCollector() throws {
    let reader = try token("read")
    var lines = [
      #"{"session":"deep","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}}"#
    ]
    for seq in 2...5_000 {
      // 999 pushes, then a pop and a push in turn (the stack 1,000 deep after each push).
      let op =
        seq == 5_000
        ? #"{"op":"push","screen":"end"}"#
        : (seq <= 1_000 || seq.isMultiple(of: 2)
          ? #"{"op":"push","screen":{"detail":{"id":\#(seq)}}}"# : #"{"op":"pop"}"#)
      lines.append(#"{"session":"deep","seq":\#(seq),"at":"2026-11-21T10:00:00.000Z","op":\#(op)}"#)
    }
    try lines.joined(separator: "\n").write(toFile: folder.path("deep.jsonl"), atomically: true, encoding: .utf8)
    #expect(try navstore(["import", "deep.jsonl", "--db", "collector.sqlite", "--app", "drill"]).status == 0)
    let server = try serve()
    let baseline = server.peakKiB
    let started = ContinuousClock.now
    let report = try DrillHTTP.get(server.url + "/v1/sessions/deep/report?at=2500", token: reader)
    let took = ContinuousClock.now - started
    #expect(report.status == 200 && report.body.count < 10_000_000, "\(report.body.count) bytes")
    let export = try DrillHTTP.get(server.url + "/v1/export/events?format=csv&omit_payloads=true", token: reader)
    #expect(export.status == 200 && export.text.hasPrefix("session,seq,") && !export.text.contains(#""id""#))
    let omitted = try DrillHTTP.get(server.url + "/v1/sessions/deep/report?at=2500&omit_payloads=true", token: reader)
    #expect(omitted.status == 200 && !omitted.text.contains(#"\"id\":2500"#) && report.text.contains(#"\"id\":2500"#))
    let peak = server.peakKiB
    #expect(peak < 128 * 1024, "peak \(peak) KiB (\(baseline) KiB before the report)")
    print("report of 5,000 events at seq 2,500: \(report.body.count) bytes in \(took), serve's peak \(peak) KiB")
    #expect(server.stop(SIGTERM) == 0)
  }

  // MARK: Tokens, metrics, logs

  @Test func tokensHaveALabelAnExpiryAndALastUseAndRevokingNeverPrintsASecret() throws {
    let ingest = try token("ingest", extra: ["--label", "ios app 4.2", "--expires-in", "90d"])
    let server = try serve()
    #expect(try DrillHTTP.get(server.url + "/v1/limits", token: ingest).status == 200)
    Thread.sleep(forTimeInterval: 1)  // the use is written in the background
    let listed = try navstore(["token", "list", "--db", "collector.sqlite", "--json"])
    let row = try WireFormat.decode(JSONValue.self, from: Array(Data(listed.stdoutLines[0].utf8)))
    #expect(row.objectValue?["label"] == .string("ios app 4.2"))
    #expect(row.objectValue?["expires_at"] != .null && row.objectValue?["last_used_at"] != .null, "\(row)")
    // A token whose time has passed authenticates nothing.
    let store = try SQLiteFleet(path: folder.path("collector.sqlite"))
    let brief = try store.createToken(
      app: AppName("drill"), role: .read,
      expiresAt: Timestamp(millisecondsSince1970: Timestamp.now.millisecondsSince1970 + 1_500))
    #expect(try DrillHTTP.get(server.url + "/v1/limits", token: brief.text).status == 200)
    Thread.sleep(forTimeInterval: 2)
    #expect(try DrillHTTP.get(server.url + "/v1/limits", token: brief.text).status == 401)
    // Revoking with the whole token pasted: the id is taken, the secret never printed.
    #expect(try DrillHTTP.get(server.url + "/v1/limits", token: ingest).status == 200)
    let revoked = try navstore(["token", "revoke", ingest, "--db", "collector.sqlite"])
    let secret = String(ingest.suffix(64))
    #expect(revoked.status == 0 && !revoked.stdout.contains(secret) && !revoked.stderr.contains(secret))
    // Refused within a second of its revocation, though just found valid: the collector takes
    // a token it found valid again for a second at most.
    Thread.sleep(forTimeInterval: 1.2)
    #expect(try DrillHTTP.get(server.url + "/v1/limits", token: ingest).status == 401)
    let unknown = try navstore(["token", "revoke", "nvs_0123456789abcdef_" + secret, "--db", "collector.sqlite"])
    #expect(unknown.status != 0 && !unknown.stderr.contains(secret), "\(unknown.stderr)")
    #expect(server.stop(SIGTERM) == 0)
  }

  /// `serve --forward-otlp` against a stand-in endpoint: the app's records arrive, with the
  /// headers file's key, without what `--forward-omit-payloads` leaves out, and parsed by
  /// OpenTelemetry's own definitions; the metrics count them and say the lag; the key is in no
  /// log line. Options that go with it are refused without it.
  @Test func forwardingSendsTheRecordsWithTheKeyAndCountsThem() throws {
    let ingest = try token("ingest")
    let receiver = Process()
    // Python itself, not a launcher that would outlive `terminate()` holding the test's output.
    receiver.executableURL = URL(fileURLWithPath: try #require(Python.executable, "no python3"))
    let script = URL(fileURLWithPath: EventFormatCheck.script).deletingLastPathComponent()
      .appendingPathComponent("otlp_receiver.py").path
    let (portFile, bodies, headers) = (folder.path("port"), folder.path("bodies.jsonl"), folder.path("headers"))
    receiver.arguments = [script, portFile, bodies, headers]
    receiver.standardOutput = FileHandle.nullDevice
    receiver.standardError = FileHandle.nullDevice
    try receiver.run()
    defer { receiver.terminate() }
    var port: String?
    for _ in 0..<100 where port == nil {
      port = try? String(contentsOfFile: portFile, encoding: .utf8)
      if port == nil { Thread.sleep(forTimeInterval: 0.05) }
    }
    let endpoint = try #require(port.map { "http://127.0.0.1:\($0)" }, "the stand-in endpoint did not start")
    let key = "Bearer otlp-key-\(UUID().uuidString)"
    try "Authorization: \(key)\n".write(toFile: folder.path("otlp.headers"), atomically: true, encoding: .utf8)
    let log = folder.path("serve.log")
    let server = try serve(
      [
        "--forward-otlp", endpoint, "--forward-headers-file", "otlp.headers", "--forward-state", "forward",
        "--forward-omit-payloads",
      ], log: log)
    // The lines' causes say `tapped`, with the seq: left out, but for the action's name.
    #expect(try upload(SessionLines.make(prefix: "f", sessions: 2, events: 4), to: server, token: ingest).status == 200)
    var metrics = ""
    let deadline = ContinuousClock.now + .seconds(30)
    let sent = #"navstore_forwarded_records_total{app="drill",outcome="sent"}"#
    func lag(_ text: String) -> Double? {
      text.split(separator: "\n").first { $0.hasPrefix(#"navstore_forward_lag_seconds{app="drill"} "#) }
        .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }
    while ContinuousClock.now < deadline, !(metrics.contains(sent) && lag(metrics) == 0) {
      Thread.sleep(forTimeInterval: 0.2)
      metrics = try DrillHTTP.get(server.url + "/metrics", token: "").text
    }
    #expect(metrics.contains(sent), "\(metrics)")
    #expect(lag(metrics) == 0, "caught up")
    let sentKeys = try String(contentsOfFile: headers, encoding: .utf8).split(separator: "\n")
    #expect(!sentKeys.isEmpty && sentKeys.allSatisfy { $0 == key }, "every request carries the key")
    let sentBodies = try String(contentsOfFile: bodies, encoding: .utf8)
    #expect(sentBodies.contains("tapped") && !sentBodies.contains(#"{\"tapped\":"#), "the action's name, not its value")
    if EventFormatCheck.installed || EventFormatCheck.isRequired {
      let check = try EventFormatCheck.run(["--otlp-only", bodies])
      #expect(check.status == 0 && check.stdout.contains("2 sessions"), "\(check.stdout)\n\(check.stderr)")
    }
    #expect(server.stop(SIGTERM) == 0)
    let logged = try String(contentsOfFile: log, encoding: .utf8)
    #expect(logged.contains("forwarding navigation to OpenTelemetry") && !logged.contains(key), "\(logged)")
    // What goes with --forward-otlp is refused without it, and a URL must be one.
    for (options, says) in [
      (["--forward-state", "x"], "go with --forward-otlp"), (["--forward-omit-payloads"], "go with --forward-otlp"),
      (["--forward-otlp", "ftp://x"], "http:// or https://"),
      (["--forward-otlp", "http://x", "--forward-keep-payload-fields", "a.b"], "--forward-omit-payloads"),
      (["--forward-otlp", "http://x", "--forward-app", "Not An App"], "--forward-app"),
      (["--forward-otlp", "http://x", "--db", "postgres://u@h/d"], "--forward-state"),
    ] {
      let refused = try navstore(["serve", "--db", "collector.sqlite"] + options)
      #expect(refused.status != 0 && refused.stderr.contains(says), "\(options): \(refused.stderr)")
    }
  }

  @Test func everyMetricHasHelpAndTypeAndTheProcessAndStoresAreFigured() throws {
    let ingest = try token("ingest")
    let server = try serve()
    #expect(try upload(SessionLines.make(prefix: "m", sessions: 1, events: 3), to: server, token: ingest).status == 200)
    let text = try DrillHTTP.get(server.url + "/metrics", token: "").text
    let lines = text.split(separator: "\n").map(String.init)
    let samples = Set(
      lines.filter { !$0.hasPrefix("#") }.compactMap {
        $0.split(whereSeparator: { "{ ".contains($0) }).first.map(String.init)
      })
    for name in samples {
      let family = ["_bucket", "_sum", "_count"].reduce(name) { $0.hasSuffix($1) ? String($0.dropLast($1.count)) : $0 }
      #expect(lines.contains { $0.hasPrefix("# HELP \(family) ") }, "\(family) has no HELP")
      #expect(lines.contains { $0.hasPrefix("# TYPE \(family) ") }, "\(family) has no TYPE")
    }
    for expected in [
      "process_resident_memory_bytes", "process_open_fds", "process_cpu_seconds_total", "navstore_store_file_bytes",
      "navstore_store_ready", "navstore_open_uploads", "navstore_http_requests_total",
    ] {
      #expect(samples.contains(expected), "\(expected)")
    }
    #expect(text.contains(#"navstore_store_file_bytes{app="drill",file="database"}"#))
    #expect(server.stop(SIGTERM) == 0)
  }

  @Test func jsonLogsCarryTheRequestIDEveryAnswerNamesAndNoSecret() throws {
    let ingest = try token("ingest")
    let log = folder.path("serve.log")
    let server = try serve(["--log-format", "json"], log: log)
    let answer = try upload(
      SessionLines.make(prefix: "private-session", sessions: 1, events: 2), to: server, token: ingest)
    let id = try #require(answer.header("X-Request-Id"))
    let refused = try DrillHTTP.get(server.url + "/v1/sessions/x/head", token: "nvs_wrong")
    #expect(refused.status == 401 && refused.header("X-Request-Id") != nil)
    #expect(server.stop(SIGTERM) == 0)
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let objects = try text.split(separator: "\n").map { try WireFormat.decode(JSONValue.self, from: Array($0.utf8)) }
    let answered = objects.filter { $0.objectValue?["message"] == .string("answered") }
    let upload = try #require(answered.first { $0.objectValue?["request_id"] == .string(id) })
    for key in ["time", "level", "route", "status", "duration_ms", "client", "app"] {
      #expect(upload.objectValue?[key] != nil, "\(key)")
    }
    #expect(upload.objectValue?["app"] == .string("drill") && upload.objectValue?["route"] == .string("/v1/events"))
    #expect(answered.contains { $0.objectValue?["error"] == .string("unauthorized") })
    for secret in [ingest, String(ingest.suffix(64)), "private-session", "nvs_wrong"] {
      #expect(!text.contains(secret), "the log holds '\(secret.prefix(12))...'")
    }
  }
}
