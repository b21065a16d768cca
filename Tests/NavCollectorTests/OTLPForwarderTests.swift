import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NavCollector
import NavContract
@_spi(Internals) import NavCore
import NavFleet
import NavIngest
import NavJSON
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// The forwarder against an OTLP endpoint that fails, stalls, asks to wait and finds a batch too
/// large, while uploads arrive late and the forwarder restarts: every record of every app
/// reaches it, each session's in order, in batches of bounded size, and each app's cursor ends at
/// the store's.
@Suite(.serialized) struct OTLPForwarderTests {
  /// An OTLP endpoint on loopback that answers requests as its script says, by their number,
  /// and keeps the bodies it took (200).
  actor Receiver {
    enum Answer {
      /// 503 with `Retry-After: 0`.
      case unavailable
      /// No answer before the forwarder gives up waiting, then a 503.
      case stall
      /// 429, no `Retry-After`.
      case tooMany
      /// 413: the forwarder splits the batch.
      case tooLarge
      /// 401: a key refused, then mended.
      case refused
      /// 400: one of the records is malformed, as the endpoint sees it; the forwarder halves
      /// the batch until the record stands alone.
      case malformed
      /// 307 to another path: the forwarder must not follow it.
      case redirect
    }

    let script: [Int: Answer]
    private(set) var requests = 0
    private(set) var taken: [[UInt8]] = []

    init(script: [Int: Answer]) { self.script = script }

    func take(_ body: [UInt8]) -> Answer? {
      requests += 1
      guard let answer = script[requests] else {
        taken.append(body)
        return nil
      }
      return answer
    }
  }

  /// What tells a record apart: its session, seq and event name.
  static func key(session: String, seq: Int64, event: String) -> String { "\(session)#\(seq)/\(event)" }

  /// The records of an OTLP request: `(key, session, seq)` in order.
  static func records(_ body: [UInt8]) throws -> [(key: String, session: String, seq: Int64)] {
    let request = try JSONParser.parse(body)
    var records: [(String, String, Int64)] = []
    for resource in request.objectValue?["resourceLogs"]?.arrayValue ?? [] {
      for scope in resource.objectValue?["scopeLogs"]?.arrayValue ?? [] {
        for record in scope.objectValue?["logRecords"]?.arrayValue ?? [] {
          var values: [String: JSONValue] = [:]
          for attribute in record.objectValue?["attributes"]?.arrayValue ?? [] {
            if let key = attribute.objectValue?["key"]?.stringValue, let value = attribute.objectValue?["value"] {
              values[key] = value
            }
          }
          let session = values["session.id"]?.objectValue?["stringValue"]?.stringValue ?? ""
          let seq = Int64(values["navstore.seq"]?.objectValue?["intValue"]?.stringValue ?? "") ?? -1
          let event = record.objectValue?["eventName"]?.stringValue ?? ""
          records.append((key(session: session, seq: seq, event: event), session, seq))
        }
      }
    }
    return records
  }

  /// Random sessions of `app`, from `seed`, some sent back to the background and returned.
  static func sessions(_ prefix: String, count: Int, seed: UInt64) -> [AnyEvent] {
    var rng = SeededRandom(seed: seed)
    return (0..<count).flatMap { index in
      var events = RandomSession.make(id: "\(prefix)\(index)", using: &rng, length: Int.random(in: 2...25, using: &rng))
        .events
      if let last = events.last {
        events.append(AnyEvent(session: last.session, at: last.at, operation: .background))
        events.append(AnyEvent(session: last.session, at: last.at, operation: .foreground))
      }
      for position in events.indices {
        events[position].seq = nil
        events[position].at = Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(position) * 1_000)
      }
      return events
    }
  }

  /// A store of either engine, with two apps of the test's own.
  struct Fleet {
    let backend: any FleetBackend
    let apps: [AppName]
    /// Whether the store's cursor moves with the app's writes alone (SQLite: a file per app).
    var cursorIsTheApps = true
    /// Stores events (without seqs) in an app, as an upload does.
    let append: @Sendable ([AnyEvent], AppName) async throws -> Void
  }

  /// The events as the wire format's lines, numbered and chained by a scratch store.
  static func lines(_ events: [AnyEvent]) throws -> [ArraySlice<UInt8>] {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("scratch.sqlite"))
    for event in events { try store.append(event) }
    var bytes: [UInt8] = []
    _ = try store.exportEncoded(.events, format: .jsonl) { bytes += $0 }
    return bytes.split(separator: UInt8(ascii: "\n"))
  }

  @Test func onSQLiteEveryRecordReachesAnEndpointThatFailsAndStallsOnceInOrder() async throws {
    let folder = try TemporaryFolder()
    let fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    let backend = SQLiteBackend(fleet: fleet, logger: Logger(label: "test"))
    try await forwardsEverything(
      Fleet(backend: backend, apps: [.default, try AppName("shop")]) { events, app in
        try await fleet.store(of: app).append(contentsOf: events)
      }, folder: folder)
  }

  @Test(.enabled(if: TestPostgres.runs, TestPostgres.skipReason))
  func onPostgreSQLEveryRecordReachesAnEndpointThatFailsAndStallsOnceInOrder() async throws {
    let url = try #require(TestPostgres.url, "NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no server")
    let postgres = PostgresFleet(
      address: try PostgresAddress(url), connections: 4, operationTimeout: TestPostgres.patientOperationTimeout)
    let pool = Task { await postgres.run() }
    defer { pool.cancel() }
    _ = try await postgres.migrate()
    let backend = PostgresBackend(fleet: postgres)
    let apps = [try AppName(TestPostgres.uniqueApp("shop")), try AppName(TestPostgres.uniqueApp("blog"))]
    // A token made for an app makes the app.
    for app in apps { _ = try await postgres.createToken(app: app, role: .ingest) }
    try await forwardsEverything(
      Fleet(backend: backend, apps: apps, cursorIsTheApps: false) { events, app in
        let outcome = try await backend.ingest(
          try Self.lines(events), app: app, signedBy: nil, datedUpTo: Timestamp(millisecondsSince1970: .max / 2))
        #expect(outcome.lines.allSatisfy { $0.outcome == .accepted }, "\(outcome)")
      }, folder: try TemporaryFolder())
  }

  func forwardsEverything(_ fleet: Fleet, folder: TemporaryFolder) async throws {
    let backend = fleet.backend
    try await fleet.append(Self.sessions("a", count: 4, seed: 1), fleet.apps[1])
    try await fleet.append(Self.sessions("d", count: 1, seed: 2), fleet.apps[0])
    let receiver = Receiver(script: [
      1: .unavailable, 2: .stall, 3: .tooMany, 4: .tooLarge, 6: .refused, 7: .malformed, 9: .unavailable,
      10: .redirect, 12: .stall,
    ])
    let router = Router()
    router.post("v1/logs") { request, _ -> Response in
      let body = try await request.body.collect(upTo: 16 << 20)
      switch await receiver.take(Array(body.readableBytesView)) {
      case nil:
        return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
      case .unavailable:
        return Response(status: .serviceUnavailable, headers: [.retryAfter: "0"])
      case .stall:
        try await Task.sleep(for: .seconds(3))
        return Response(status: .serviceUnavailable)
      case .tooMany:
        return Response(status: .tooManyRequests)
      case .tooLarge:
        return Response(status: .contentTooLarge)
      case .refused:
        return Response(status: .unauthorized)
      case .malformed:
        return Response(status: .badRequest)
      case .redirect:
        return Response(status: .temporaryRedirect, headers: [.location: "/elsewhere"])
      }
    }
    router.on("elsewhere", method: .get) { _, _ -> Response in
      Issue.record("the forwarder followed a redirect")
      return Response(status: .ok)
    }
    router.post("elsewhere") { _, _ -> Response in
      Issue.record("the forwarder followed a redirect")
      return Response(status: .ok)
    }
    try await Application(router: router).test(.live) { client in
      let port = try #require(client.port)
      let configuration = ForwardingConfiguration(
        endpoint: try #require(URL(string: "http://127.0.0.1:\(port)/v1/logs")), apps: fleet.apps,
        stateFolder: folder.path("forward"),
        pollInterval: .milliseconds(50), batchRecords: 7, requestTimeout: .seconds(1),
        retry: RetryPolicy(
          firstBackoff: .milliseconds(10), maximumBackoff: .milliseconds(50), maximumRetryAfter: .seconds(1),
          retriesOtherAnswers: true))
      let forwarder = OTLPForwarder(backend: backend, configuration: configuration, logger: Logger(label: "test"))
      // A first run, stopped once the endpoint has taken some; meanwhile uploads arrive, one of
      // them dated two days back; then a second run resumes from the cursors.
      let first = Task { try await forwarder.run() }
      try await Self.waitFor(receiver, records: 10)
      first.cancel()
      _ = await first.result
      var late = Self.sessions("late", count: 2, seed: 3)
      for index in late.indices { late[index].at = Timestamp(millisecondsSince1970: 1_794_800_000_000) }
      try await fleet.append(late, fleet.apps[1])
      let second = Task { try await forwarder.run() }
      defer { second.cancel() }

      var expected: Set<String> = []
      for app in fleet.apps {
        var bytes: [UInt8] = []
        try await backend.export(.screenViews, format: .otlp, filter: ExportFilter(), app: app) { bytes += $0 }
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
          expected.formUnion(try Self.records(Array(line)).map(\.key))
        }
      }
      #expect(expected.count > 60)
      // Generous: a full run shares two cores among hundreds of tests.
      let deadline = ContinuousClock.now + .seconds(120)
      var seen: Set<String> = []
      while ContinuousClock.now < deadline {
        let taken = await receiver.taken
        seen = Set(try taken.flatMap { try Self.records($0).map(\.key) })
        if expected.isSubset(of: seen) { break }
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(expected.subtracting(seen).isEmpty, "\(expected.subtracting(seen).count) records never arrived")
      #expect(await receiver.requests > 12, "the script's failures were all met")
      // Each session's records arrive in order (a record sent again repeats one already taken).
      var order: [String: [Int64]] = [:]
      var known: Set<String> = []
      for body in await receiver.taken {
        let records = try Self.records(body)
        #expect(records.count <= 7, "a request holds one batch at most")
        for record in records where known.insert(record.key).inserted {
          order[record.session, default: []].append(record.seq)
        }
      }
      for (session, seqs) in order { #expect(seqs == seqs.sorted(), "\(session): \(seqs)") }
      // Each app's cursor is where the store was at its last round: on SQLite, where the app's
      // store is now; on PostgreSQL, whose cursor other apps' writes move too, no further. The
      // forwarder writes it just after the endpoint took the round's last batch, so a loaded
      // machine may see the records before the file.
      for app in fleet.apps {
        let cursor = try await backend.checkExport(ExportFilter(), app: app)
        let path = folder.path("forward/\(app.rawValue).cursor")
        var saved: Int64?
        while ContinuousClock.now < deadline {
          let text = try? String(contentsOfFile: path, encoding: .utf8)
          saved = text.flatMap { Int64($0.trimmingCharacters(in: .newlines)) }
          if let saved, fleet.cursorIsTheApps ? saved == cursor : saved > 0 { break }
          try await Task.sleep(for: .milliseconds(50))
        }
        let written = try #require(saved, "\(app.rawValue)'s cursor was never written")
        #expect(fleet.cursorIsTheApps ? written == cursor : written <= cursor, "\(written) and \(cursor)")
      }
      // OpenTelemetry's own definitions take every request as it was sent.
      if EventFormatCheck.installed || EventFormatCheck.isRequired {
        let file = folder.path("taken.jsonl")
        let lines = await receiver.taken.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") + "\n"
        try lines.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try EventFormatCheck.run(["--otlp-only", file])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
      }
    }
  }

  /// `--forward-otlp` takes a base endpoint, as OpenTelemetry's exporters do, or the full
  /// `/v1/logs` URL; nothing but http(s).
  @Test func theEndpointIsABaseOrTheLogsURL() {
    for (given, posted) in [
      ("http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/logs"), ("http://h:4318/", "http://h:4318/v1/logs"),
      ("https://otlp.example.com/otlp", "https://otlp.example.com/otlp/v1/logs"),
      ("https://otlp.example.com/otlp/v1/logs", "https://otlp.example.com/otlp/v1/logs"),
    ] {
      #expect(ForwardingConfiguration.endpoint(given)?.absoluteString == posted, "\(given)")
    }
    for refused in ["ftp://h/v1/logs", "h:4318", "http:///v1/logs", ""] {
      #expect(ForwardingConfiguration.endpoint(refused) == nil, "\(refused)")
    }
  }

  static func waitFor(_ receiver: Receiver, records: Int) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      let taken = await receiver.taken
      if try taken.reduce(0, { $0 + (try Self.records($1)).count }) >= records { return }
      try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("the endpoint took fewer than \(records) records in 60 s")
  }
}
