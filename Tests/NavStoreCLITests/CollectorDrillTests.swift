import Foundation
import NavTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `navstore serve` as a process, under the clients a fleet really has: one that says nothing,
/// one that sends a byte at a time, one that stops reading an export, a gzip bomb, sixteen
/// devices at once, and a collector killed in the middle of uploads.
@Suite(.waitsOnProcesses) struct CollectorDrillTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func theLogHasALinePerRequestAndNoTokenSessionOrPayload() throws {
    let ingest = try token("ingest")
    let log = folder.path("serve.log")
    let server = try CollectorProcess(db: "collector.sqlite", in: folder.url, log: log)
    let line =
      #"{"session":"private-session-7","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"private-screen-9","style":"root","withNavigation":true}]}}}"#
    #expect(try DrillHTTP.post(server.url + "/v1/events", token: ingest, body: Data(line.utf8)).status == 200)
    #expect(try DrillHTTP.get(server.url + "/v1/sessions/private-session-7/head?after=private-query").status == 401)
    #expect(try DrillHTTP.get(server.url + "/healthz").status == 200)
    #expect(server.stop(SIGTERM) == 0)
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let answered = text.split(separator: "\n").filter { $0.contains("answered") }
    #expect(answered.count == 3, "\(text)")
    #expect(answered.first?.contains("route=/v1/events") == true && answered.first?.contains("status=200") == true)
    #expect(answered.dropFirst().first?.contains("status=401") == true, "\(text)")
    for secret in [ingest, String(ingest.suffix(64)), "private-session", "private-screen", "private-query"] {
      #expect(!text.contains(secret), "the log holds '\(secret.prefix(12))...'")
    }
  }

  @Test func aSilentConnectionIsClosedAtTheIdleTimeout() throws {
    let server = try serve(["--idle-timeout", "1"])
    let connection = try RawConnection(port: server.port)
    // Up to 20 s for a 1 s timeout: the bound is generous, the point is that it closes.
    #expect(connection.receive(for: 20).closed)
    #expect(server.stop(SIGTERM) == 0)
  }

  @Test func aClientSendingAByteAtATimeIsCutOffWithA408AndNothingIsStored() throws {
    let ingest = try token("ingest")
    let server = try serve(["--request-timeout", "2", "--idle-timeout", "30"])
    let connection = try RawConnection(port: server.port)
    let line = SessionLines.make(prefix: "slow", sessions: 1, events: 1)[0] + "\n"
    connection.send(
      "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ingest)\r\n"
        + "Content-Type: application/x-ndjson\r\nContent-Length: \(line.utf8.count)\r\n\r\n")
    // Never silent for a second (the idle timeout does not fire), never done: a byte each
    // 0.2 s would take the whole line minutes. The request timeout ends it.
    var answer = Data()
    var closed = false
    for character in line where !closed {
      connection.send(String(character))
      let received = connection.receive(for: 0.2)
      answer += received.data
      closed = received.closed
    }
    let text = String(decoding: answer, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
    #expect(text.contains("\"error\":\"request-timeout\""))
    #expect(closed, "the connection is closed after the 408")
    #expect(server.stop(SIGTERM) == 0)
    let sessions = try navstore(["sessions", "--db", "collector.sqlite", "--app", "drill", "--json"])
    #expect(sessions.status == 0 && sessions.stdout.isEmpty, "nothing was stored: \(sessions.stdout)")
  }

  @Test func aClientThatStopsReadingAnExportIsLetGoAndTheCollectorGoesOn() throws {
    let reader = try token("read")
    let file = folder.path("big.jsonl")
    try SessionLines.make(prefix: "big", sessions: 60, events: 1_000).joined(separator: "\n").write(
      toFile: file, atomically: false, encoding: .utf8)
    #expect(try navstore(["import", file, "--db", "collector.sqlite", "--app", "drill"]).status == 0)
    let whole = try navstore([
      "export", "--table", "events", "--format", "csv", "--db", "collector.sqlite", "--app", "drill",
    ])
    let server = try serve(["--request-timeout", "2"])
    let connection = try RawConnection(port: server.port, receiveBuffer: 4_096)
    connection.send(
      "GET /v1/export/events?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(reader)\r\n\r\n")
    // The client reads nothing for 6 s, three times the timeout, then everything it can.
    Thread.sleep(forTimeInterval: 6)
    let received = connection.receive(for: 30)
    #expect(received.closed, "the collector ended the answer")
    #expect(
      received.data.count < whole.stdout.utf8.count,
      "it stopped before the end of a \(whole.stdout.utf8.count)-byte export")
    // The collector goes on: a new client is served.
    let health = try DrillHTTP.get(server.url + "/healthz")
    #expect(health.status == 200)
    #expect(server.stop(SIGTERM) == 0)
  }

  /// 1 GiB once inflated (lines of 128 KiB of spaces, each under the line limit), about 1 MiB
  /// on the wire: refused at the request limit, 8 MiB in, with the collector's memory bounded.
  @Test func aGzipBombOfOneGibibyteIsRefusedInBoundedMemory() throws {
    let ingest = try token("ingest")
    let bomb = folder.path("bomb.gz")
    let made = try NavStoreProcess.shell(
      "yes \"$(printf '%131071s' '')\" | head -c 1073741824 | gzip -c > '\(bomb)'")
    try #require(made == 0)
    let server = try serve()
    // A first upload, so that the baseline holds what any upload costs.
    let warmUp = SessionLines.make(prefix: "warm", sessions: 1, events: 10).joined(separator: "\n")
    #expect(try DrillHTTP.post(server.url + "/v1/events", token: ingest, body: Data(warmUp.utf8)).status == 200)
    let baseline = server.peakKiB
    let answer = try DrillHTTP.post(
      server.url + "/v1/events", token: ingest, body: try Data(contentsOf: URL(fileURLWithPath: bomb)), gzip: true)
    let peak = server.peakKiB
    #expect(answer.status == 413, "\(String(decoding: answer.body, as: UTF8.self))")
    #expect(baseline > 0 && peak - baseline < 64 * 1024, "peak memory grew by \(peak - baseline) KiB for the bomb")
    #expect(try DrillHTTP.get(server.url + "/healthz").status == 200)
    #expect(server.stop(SIGTERM) == 0)
  }

  @Test func sixteenClientsAtOnceLeaveWhatALocalImportOfTheSameLinesLeaves() throws {
    let ingest = try token("ingest")
    var files: [String] = []
    for client in 0..<16 {
      let file = folder.path("client-\(client).jsonl")
      try SessionLines.make(prefix: "device-\(client)", sessions: 20, events: 50).joined(separator: "\n").write(
        toFile: file, atomically: false, encoding: .utf8)
      files.append(file)
    }
    // One token for the app, as devices share it; a rate that sixteen clients do not reach.
    let server = try serve(["--rate", "10000", "--burst", "10000"])
    let pushes = try files.map { file in
      let process = Process()
      process.executableURL = NavStoreProcess.binary
      process.arguments = ["push", file, "--to", server.url, "--token", ingest, "--batch", "100"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }
    for push in pushes {
      push.waitUntilExit()
      #expect(push.terminationStatus == 0)
    }
    #expect(server.stop(SIGTERM) == 0)
    for file in files { #expect(try navstore(["import", file, "--db", "local.sqlite"]).status == 0) }
    #expect(try navstore(["verify", "--db", "collector.sqlite", "--app", "drill"]).status == 0)
    for table in ["events", "sessions", "screen-views", "transitions"] {
      let local = try navstore(["export", "--table", table, "--format", "csv", "--db", "local.sqlite"])
      let collected = try navstore([
        "export", "--table", table, "--format", "csv", "--db", "collector.sqlite", "--app", "drill",
      ])
      #expect(
        withoutReceived(csv: collected.stdout) == withoutReceived(csv: local.stdout)
          && local.stdout.split(whereSeparator: \.isNewline).count > 16,
        "\(table): \(local.stderr) \(collected.stderr)")
    }
  }

  /// Eight clients upload in batches of 50 while the collector is killed (SIGKILL) at a random
  /// moment, four times (`NAVSTORE_COLLECTOR_KILLS=N` for N, the long form by hand); after each
  /// kill, every line a 200 acknowledged is in the store, which verifies. A last run, not killed,
  /// completes the uploads: the store equals a local import.
  @Test func everyAcknowledgedLineSurvivesACollectorKilledMidUpload() throws {
    let kills = ProcessInfo.processInfo.environment["NAVSTORE_COLLECTOR_KILLS"].flatMap(Int.init) ?? 4
    let ingest = try token("ingest")
    let clients = (0..<8).map { SessionLines.make(prefix: "kill-\($0)", sessions: 10, events: 100) }
    let all = folder.path("all.jsonl")
    try clients.joined().joined(separator: "\n").write(toFile: all, atomically: false, encoding: .utf8)
    var random = SeededRandom(seed: 31)
    for round in 0...kills {
      // The eight clients share one token and sign nothing, so each is the token: its share of
      // the uploads under way is raised to hold them all (these clients do not resend a 429).
      let server = try serve(["--rate", "10000", "--burst", "10000", "--max-open-per-client", "8"])
      let url = server.url
      let acknowledged = Acknowledged()
      // Each run sends everything again: what is stored comes back as duplicates.
      let group = DrillUploads.start(clients, to: url, token: ingest, acknowledged: acknowledged)
      if round < kills {
        Thread.sleep(forTimeInterval: Double(random.next() % 400 + 50) / 1_000)
        _ = server.stop(SIGKILL)
      }
      group.wait()
      if round == kills { #expect(server.stop(SIGTERM) == 0) } else { _ = server.stop(SIGKILL) }
      let stored = try navstore([
        "export", "--table", "events", "--format", "csv", "--db", "collector.sqlite", "--app", "drill",
      ])
      let storedKeys = Set(
        stored.stdout.split(whereSeparator: \.isNewline).dropFirst().map {
          $0.split(separator: ",").prefix(2).joined(separator: ",")
        })
      let missing = acknowledged.keys.subtracting(storedKeys)
      #expect(
        missing.isEmpty,
        "round \(round): \(missing.count) acknowledged lines of \(acknowledged.keys.count) are missing, like \(missing.sorted().prefix(3)); stored \(storedKeys.count), like \(storedKeys.sorted().prefix(3)), \(stored.stderr)"
      )
      #expect(try navstore(["verify", "--db", "collector.sqlite", "--app", "drill"]).status == 0, "round \(round)")
    }
    #expect(try navstore(["import", all, "--db", "local.sqlite"]).status == 0)
    let local = try navstore(["export", "--table", "events", "--format", "csv", "--db", "local.sqlite"])
    let collected = try navstore([
      "export", "--table", "events", "--format", "csv", "--db", "collector.sqlite", "--app", "drill",
    ])
    #expect(
      withoutReceived(csv: collected.stdout) == withoutReceived(csv: local.stdout),
      "the last, unkilled run completed every upload")
  }
}

/// Clients uploading over plain HTTP, as the drills run them.
enum DrillUploads {
  /// Each client sends its lines in batches of 50, one request at a time, on a thread of its
  /// own, until all are sent or one is answered otherwise than 200 (or not at all): the lines of
  /// each 200 go to `acknowledged`, each client's first other answer to `refusals`. The group
  /// is left when every client has stopped.
  static func start(
    _ clients: [[String]], to url: String, token: String, acknowledged: Acknowledged, refusals: Refusals = Refusals()
  ) -> DispatchGroup {
    let group = DispatchGroup()
    for lines in clients {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        for start in stride(from: 0, to: lines.count, by: 50) {
          let batch = Array(lines[start..<min(start + 50, lines.count)])
          guard
            let answer = try? DrillHTTP.post(
              url + "/v1/events", token: token, body: Data(batch.joined(separator: "\n").utf8))
          else { return refusals.add(status: -1, retryAfter: nil) }
          guard answer.status == 200 else {
            return refusals.add(status: answer.status, retryAfter: answer.header("Retry-After"))
          }
          acknowledged.add(batch, answer: answer.body)
        }
      }
    }
    return group
  }
}

/// The lines of 200 answers: their `session,seq`, less the lines the answer rejected.
final class Acknowledged: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Set<String> = []

  var keys: Set<String> { lock.withLock { stored } }

  func add(_ batch: [String], answer: Data) {
    let object = (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any]
    let rejected = Set(((object?["rejected"] as? [[String: Any]]) ?? []).compactMap { $0["line"] as? Int })
    let keys = batch.enumerated().compactMap { index, line -> String? in
      guard !rejected.contains(index + 1),
        let event = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
        let session = event["session"] as? String, let seq = event["seq"] as? Int
      else { return nil }
      return "\(session),\(seq)"
    }
    lock.withLock { stored.formUnion(keys) }
  }
}
