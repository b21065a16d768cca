import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import NavUpload
import Testing

/// `navstore serve` against clients written to hurt it, as anyone holding the app's ingest
/// token can: every body shape gets its answer within a deadline and leaves the server healthy;
/// malformed requests, HTTP/1.0 and clients that hang up are answered as the contract says;
/// two hundred slow uploads leave the probes, the metrics and a reader answering; SIGTERM ends
/// the process within the drain time whatever is under way.
@Suite(.waitsOnProcesses) struct HostileClientTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  /// The server answers `/healthz` within 2 s.
  func expectHealthy(_ server: CollectorProcess, after what: String, sourceLocation: SourceLocation = #_sourceLocation)
  {
    let connection = try? RawConnection(port: server.port)
    connection?.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    let answer = connection?.answer(within: 2)
    #expect(answer?.status == 200, "the server is not healthy after \(what)", sourceLocation: sourceLocation)
  }

  /// A POST of `body` to `/v1/events` on a connection of its own; its answer within `seconds`.
  func post(
    _ body: [UInt8], port: UInt16, token: String, gzip: Bool, within seconds: Double = 10,
    extraHeaders: String = ""
  ) throws -> (status: Int?, head: String, body: String, closed: Bool) {
    let connection = try RawConnection(port: port)
    connection.send(
      "POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/x-ndjson\r\n"
        + (gzip ? "Content-Encoding: gzip\r\n" : "") + extraHeaders + "Content-Length: \(body.count)\r\n\r\n")
    connection.send(bytes: body)
    return connection.answer(within: seconds)
  }

  static func gzip(_ text: String) throws -> [UInt8] { try Gzip.compress(Array(text.utf8)) }

  @Test func everyBodyShapeIsAnsweredInTimeAndTheServerStaysHealthy() throws {
    let ingest = try token("ingest")
    // A small request limit keeps the shapes that run to it quick to send.
    let server = try serve([
      "--max-request-bytes", "1048576", "--max-line-bytes", "4096", "--max-request-lines", "5000",
    ])
    let lines = SessionLines.make(prefix: "shape", sessions: 2, events: 2)
    let one = try Self.gzip(lines[0] + "\n" + lines[1] + "\n")
    let other = try Self.gzip(lines[2] + "\n" + lines[3] + "\n")
    let empty = try Gzip.compress([])
    let starts = SessionLines.make(prefix: "many", sessions: 5_000, events: 1).joined(separator: "\n")
    let tooMany = SessionLines.make(prefix: "more", sessions: 10_000, events: 1).joined(separator: "\n")
    // 64 MiB of lines that inflate from about 64 KiB: the limits hold while it inflates.
    let bomb = try Gzip.compress([UInt8](repeating: UInt8(ascii: "\n"), count: 64 << 20))
    let shapes: [(name: String, body: [UInt8], gzip: Bool, status: Int)] = [
      ("eight zero bytes after a member", one + [UInt8](repeating: 0, count: 8), true, 400),
      ("garbage after a member", one + Array("garbage".utf8), true, 400),
      ("a member cut short", Array(one.dropLast(6)), true, 400),
      ("a member cut in its header", Array(one.prefix(5)), true, 400),
      ("an empty gzip body", [], true, 400),
      ("not gzip at all", Array(lines[0].utf8), true, 400),
      ("empty members past the limit on the body as sent", (0..<54_000).flatMap { _ in empty }, true, 413),
      ("a line past its limit with no newline", [UInt8](repeating: 0x20, count: 5_000), false, 413),
      ("more lines than a request may have", Array(String(repeating: "\n", count: 5_001).utf8), false, 413),
      ("two members, one body", one + other, true, 200),
      ("5,000 sessions in one request", try Gzip.compress(Array(starts.utf8)), true, 200),
      ("10,000 sessions in one request", try Gzip.compress(Array(tooMany.utf8)), true, 413),
      ("a gzip bomb of 64 MiB", bomb, true, 413),
    ]
    for shape in shapes {
      let started = ContinuousClock.now
      let answer = try post(shape.body, port: server.port, token: ingest, gzip: shape.gzip)
      #expect(answer.status == shape.status, "\(shape.name): \(answer.head) \(answer.body)")
      if shape.status != 200 { #expect(answer.body.contains(#""error":"#), "\(shape.name): a JSON error body") }
      #expect(ContinuousClock.now - started < .seconds(10), "\(shape.name)")
      expectHealthy(server, after: shape.name)
    }
    // The two members were read as one body: both sessions, two events each.
    let heads = try navstore(["sessions", "--db", "collector.sqlite", "--app", "drill", "--json", "--limit", "3"])
    #expect(heads.status == 0)
    #expect(server.stop(SIGTERM) == 0)
  }

  /// The bodies that once spun forever in the inflate loop, many at once on a two-core server:
  /// each answered, and the probes and metrics with them.
  @Test func bodiesThatOnceHungAreAnsweredTogetherWhileProbesGoOn() throws {
    let ingest = try token("ingest")
    let server = try serve(["--max-open-per-client", "16"])
    let line = SessionLines.make(prefix: "hang", sessions: 1, events: 1)[0] + "\n"
    let trailing = try Self.gzip(line) + [UInt8](repeating: 0, count: 8)
    let statuses = Protected<[Int?]>([])
    let group = DispatchGroup()
    let port = server.port
    for _ in 0..<8 {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        let status = try? post(trailing, port: port, token: ingest, gzip: true).status
        statuses.withLock { $0.append(status) }
      }
    }
    group.wait()
    #expect(statuses.withLock { $0 } == Array(repeating: 400, count: 8))
    let metrics = try DrillHTTP.get(server.url + "/metrics", token: "", timeout: 5)
    #expect(metrics.status == 200)
    expectHealthy(server, after: "eight bodies with bytes after their member")
    #expect(server.stop(SIGTERM) == 0)
  }

  @Test func malformedRequestsHTTP10AndTheSchemesCaseAreAnsweredAsTheContractSays() throws {
    let reader = try token("read")
    let ingest = try token("ingest")
    let line = SessionLines.make(prefix: "http10", sessions: 1, events: 1)[0]
    let server = try serve()
    // A request line that is not HTTP: a 400 with the contract's body, and the connection closed.
    let bad = try RawConnection(port: server.port)
    bad.send("GARBAGE\u{1} / HTTP/1.1\r\n\r\n")
    let badAnswer = bad.answer(within: 5)
    #expect(badAnswer.status == 400 && badAnswer.body.contains(#""error":"bad-request""#), "\(badAnswer)")
    // Headers larger than the server reads: the same.
    let huge = try RawConnection(port: server.port)
    huge.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n")
    let hugeAnswer = huge.answer(within: 5)
    #expect(hugeAnswer.status == 400 || hugeAnswer.status == 431, "\(hugeAnswer.head)")
    #expect(hugeAnswer.body.contains(#""error":"#), "\(hugeAnswer)")
    // A body in a transfer coding the server does not read, a chunked sign-in form past its 4 KiB
    // and a heads body of 4 MB: each a 400 or a 413 in the contract's words, never a 500.
    let codings: [(String, String, Int)] = [
      (
        "POST /v1/events",
        "Authorization: Bearer \(ingest)\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: xchunked", 400
      ),
      (
        "POST /v1/events",
        "Authorization: Bearer \(ingest)\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: gzip, chunked", 400
      ),
      ("POST /console/sign-in", "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked", 413),
      (
        "POST /v1/heads",
        "Authorization: Bearer \(ingest)\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked", 413
      ),
    ]
    for (requestLine, headers, status) in codings {
      let connection = try RawConnection(port: server.port)
      connection.send("\(requestLine) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n\r\n")
      let size = requestLine.hasSuffix("heads") ? 4_000_000 : 5_000
      let chunk = String(repeating: "a", count: size)
      connection.send(String(size, radix: 16) + "\r\n" + chunk + "\r\n0\r\n\r\n")
      let answer = connection.answer(within: 10)
      #expect(
        answer.status == status && answer.body.contains(#""error":"#), "\(requestLine) \(headers): \(answer.head)")
    }
    expectHealthy(server, after: "malformed requests")
    // HTTP/1.0: answered in 1.0, no chunked encoding, the connection closed after the answer.
    #expect(try DrillHTTP.post(server.url + "/v1/events", token: ingest, body: Data(line.utf8)).status == 200)
    let old = try RawConnection(port: server.port)
    old.send("GET /v1/export/events?format=csv HTTP/1.0\r\nAuthorization: Bearer \(reader)\r\n\r\n")
    let oldAnswer = old.answer(within: 5)
    #expect(oldAnswer.head.hasPrefix("HTTP/1.0 200"), "\(oldAnswer.head)")
    #expect(!oldAnswer.head.lowercased().contains("chunked") && oldAnswer.closed)
    #expect(oldAnswer.body.hasPrefix("session,seq,") && oldAnswer.body.contains("http10-0,1,"), "\(oldAnswer.body)")
    // The scheme's name in any case (RFC 9110).
    let lower = try RawConnection(port: server.port)
    lower.send("GET /v1/limits HTTP/1.1\r\nHost: x\r\nAuthorization: bearer \(reader)\r\n\r\n")
    #expect(lower.answer(within: 5).status == 200)
    #expect(server.stop(SIGTERM) == 0)
  }

  @Test func aClientThatHangsUpMidBodyIsA499AndNothingIsStored() throws {
    let ingest = try token("ingest")
    let log = folder.path("serve.log")
    let server = try serve(log: log)
    let line = Array((SessionLines.make(prefix: "gone", sessions: 1, events: 1)[0] + "\n").utf8)
    do {
      let connection = try RawConnection(port: server.port)
      connection.send(
        "POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ingest)\r\n"
          + "Content-Type: application/x-ndjson\r\nContent-Length: \(line.count + 1_000)\r\n\r\n")
      connection.send(bytes: line)
      Thread.sleep(forTimeInterval: 0.5)
    }  // closed here, a thousand bytes short
    Thread.sleep(forTimeInterval: 1)
    let metrics = try DrillHTTP.get(server.url + "/metrics", token: "").text
    #expect(metrics.contains(#"endpoint="/v1/events",status="499""#), "\(metrics)")
    #expect(!metrics.contains(#"status="500""#))
    #expect(server.stop(SIGTERM) == 0)
    let text = try String(contentsOfFile: log, encoding: .utf8)
    #expect(text.contains("status=499") && text.contains("error=client-closed"), "\(text)")
    let sessions = try navstore(["sessions", "--db", "collector.sqlite", "--app", "drill", "--json"])
    #expect(sessions.stdout.isEmpty, "nothing of the cut body was stored")
  }

  /// 200 uploads from one address that send a byte now and then: named devices or not, they
  /// share one client's places (4), which they lose for their pace, and meanwhile the probes,
  /// the metrics and a reader answer in time, again and again.
  @Test func twoHundredSlowUploadsLeaveProbesMetricsAndAReaderAnswering() throws {
    let ingest = try token("ingest")
    let reader = try token("read")
    let server = try serve(["--request-timeout", "30"])
    var slow: [RawConnection] = []
    for index in 0..<200 {
      let connection = try RawConnection(port: server.port)
      // Half of them name a device of their own (the signature is checked once the body is
      // in, which it never is): it buys them no place of their own.
      let key = DeviceSigner.generated().deviceKey?.text ?? ""
      let device = index.isMultiple(of: 2) ? "NavStore-Device-Key: \(key)\r\nNavStore-Signature: later\r\n" : ""
      connection.send(
        "POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ingest)\r\n\(device)"
          + "Content-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n{")
      slow.append(connection)
    }
    for round in 0..<5 {
      for connection in slow { connection.send(" ") }
      for path in ["/healthz", "/readyz", "/metrics"] {
        let started = ContinuousClock.now
        let answer = try DrillHTTP.get(server.url + path, token: "", timeout: 5)
        #expect(answer.status == 200 && ContinuousClock.now - started < .seconds(2), "\(path) in round \(round)")
      }
      let started = ContinuousClock.now
      let sessions = try DrillHTTP.get(server.url + "/v1/sessions", token: reader, timeout: 5)
      #expect(sessions.status == 200 && ContinuousClock.now - started < .seconds(2), "a reader in round \(round)")
      Thread.sleep(forTimeInterval: 0.5)
    }
    let metrics = try DrillHTTP.get(server.url + "/metrics", token: "").text
    #expect(metrics.contains(#"navstore_refused_requests_total{why="client-uploads"}"#), "the client's share held")
    #expect(metrics.contains(#"navstore_refused_requests_total{why="slow-body"}"#), "slow bodies lost their places")
    slow.removeAll()
    #expect(server.stop(SIGTERM) == 0)
  }

  /// Slow bodies from clients that hold the app's public ingest token, some naming device keys
  /// (made up, and one real device's), some asking heads: none buys a share of its own, one
  /// address holds four places at most, one app three quarters of a pool, and every one loses
  /// its place once it falls behind the pace. Meanwhile another app's device is served at once,
  /// readers are served at once, and the real device of the attacked app within seconds.
  @Test func slowClientsWithOrWithoutAClaimedKeyKeepNoOtherAppOrDeviceOut() throws {
    let ingest = try token("ingest")
    let reader = try token("read")
    let otherApp = try token("ingest", app: "shop")
    // Loopback is the trusted proxy, so each request's X-Forwarded-For is its client's address.
    let server = try serve(["--trusted-proxy", "127.0.0.1", "--request-timeout", "60"])
    let device = DeviceSigner.generated()
    let realKey = try #require(device.deviceKey?.text)
    func slow(_ path: String, from address: String, key: String?) throws -> RawConnection {
      let connection = try RawConnection(port: server.port)
      let claim = key.map { "NavStore-Device-Key: \($0)\r\nNavStore-Signature: later\r\n" } ?? ""
      let type = path == "/v1/heads" ? "application/json" : "application/x-ndjson"
      connection.send(
        "POST \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ingest)\r\nX-Forwarded-For: \(address)\r\n\(claim)"
          + "Content-Type: \(type)\r\nContent-Length: 100000\r\n\r\n{")
      return connection
    }
    var attack: [RawConnection] = []
    // 16 heads from one address (4 places, 12 refused); 64 uploads from 16 addresses under 16
    // made-up keys (the app's share fills); 4 naming the real device's key.
    for _ in 0..<16 { attack.append(try slow("/v1/heads", from: "203.0.113.50", key: nil)) }
    let madeUp = (0..<16).compactMap { _ in DeviceSigner.generated().deviceKey?.text }
    for index in 0..<64 {
      attack.append(try slow("/v1/events", from: "203.0.113.\(index % 16 + 1)", key: madeUp[index % 16]))
    }
    for _ in 0..<4 { attack.append(try slow("/v1/events", from: "203.0.113.99", key: realKey)) }
    Thread.sleep(forTimeInterval: 0.3)

    // Another app's device and the attacked app's readers: served at once.
    let shopLine = Array(SessionLines.make(prefix: "shop", sessions: 1, events: 1)[0].utf8)
    let shop = try DrillHTTP.post(
      server.url + "/v1/events", token: otherApp, body: Data(shopLine), headers: ["X-Forwarded-For": "198.51.100.20"],
      timeout: 5)
    #expect(shop.status == 200, "another app's upload: \(shop.status) \(shop.text)")
    let listing = try DrillHTTP.get(
      server.url + "/v1/sessions", token: reader, headers: ["X-Forwarded-For": "198.51.100.30"], timeout: 5)
    #expect(listing.status == 200, "a reader of the attacked app: \(listing.status)")

    // The real device, signed, from its own address: served within seconds, retrying as told.
    let line = Array(SessionLines.make(prefix: "real", sessions: 1, events: 1)[0].utf8)
    let started = ContinuousClock.now
    var answer = try DrillHTTP.post(
      server.url + "/v1/events", token: ingest, body: Data(line),
      headers: try device.headers(for: line).merging(["X-Forwarded-For": "198.51.100.7"]) { $1 }, timeout: 5)
    var tries = 1
    while answer.status != 200, [429, 503].contains(answer.status), answer.header("Retry-After") != nil, tries < 20 {
      Thread.sleep(forTimeInterval: Double(answer.header("Retry-After") ?? "1") ?? 1)
      answer = try DrillHTTP.post(
        server.url + "/v1/events", token: ingest, body: Data(line),
        headers: try device.headers(for: line).merging(["X-Forwarded-For": "198.51.100.7"]) { $1 }, timeout: 5)
      tries += 1
    }
    let waited = ContinuousClock.now - started
    #expect(answer.status == 200 && answer.text.hasPrefix(#"{"accepted":1,"#), "the real device: \(answer.text)")
    #expect(waited < .seconds(8), "the real device waited \(waited) (\(tries) tries)")

    // Every slow client was answered: refused at once (429, 503), or cut for its pace (408).
    var statuses: [Int: Int] = [:]
    for connection in attack { statuses[connection.answer(within: 10).status ?? 0, default: 0] += 1 }
    #expect(Set(statuses.keys).isSubset(of: [408, 429, 503]), "\(statuses)")
    #expect(statuses[408, default: 0] <= 48 + 4, "\(statuses): one app holds 48 places, one address 4")
    let metrics = try DrillHTTP.get(server.url + "/metrics", token: "").text
    for why in ["slow-body", "app-uploads", "client-uploads"] {
      #expect(metrics.contains(#"navstore_refused_requests_total{why="\#(why)"}"#), "\(why)")
    }
    attack.removeAll()
    #expect(server.stop(SIGTERM) == 0)
  }

  /// Console sign-ins carry no token yet, so no client share or rate holds them: they have a
  /// pool of their own (16), one place at a time for an address, and a form that never finishes
  /// loses its place within the form's few seconds; meanwhile reads are served. Each form here
  /// sends most of its body at once, so it keeps the pace and holds its place for the form's whole
  /// time: the read is checked against the forms still held, not against a clock.
  @Test func signInFormsThatNeverArriveHoldTheirOwnPoolBriefly() throws {
    let reader = try token("read")
    let server = try serve(["--request-timeout", "60"])
    func form(from source: String) throws -> RawConnection {
      let connection = try RawConnection(port: server.port, from: source)
      connection.send(
        "POST /console/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
          + "Content-Length: 4000\r\n\r\ntoken=&pad=" + String(repeating: "a", count: 3000))
      return connection
    }
    var held: [RawConnection] = []
    for address in 2...17 { held.append(try form(from: "127.0.0.\(address)")) }
    Thread.sleep(forTimeInterval: 0.3)
    let sessions = try DrillHTTP.get(server.url + "/v1/sessions", token: reader, timeout: 5)
    #expect(sessions.status == 200, "reads go on: \(sessions.status)")
    let stillHeld = held.filter { $0.isAwaitingAnswer }.count
    #expect(stillHeld == held.count, "the read was answered while every form still held its place")
    let again = try form(from: "127.0.0.2")
    #expect(again.answer(within: 5).status == 429, "a second sign-in from an address holding one")
    let another = try form(from: "127.0.0.40")
    #expect(another.answer(within: 5).status == 503, "a sign-in while the pool is full")
    for connection in held {
      let answer = connection.answer(within: 10)
      #expect(answer.status == 408, "a form that never arrives: \(answer.status.map(String.init) ?? "none")")
    }
    #expect(server.stop(SIGTERM) == 0)
  }

  @Test func sigtermEndsTheProcessWithinTheDrainTimeWhateverIsUnderWay() throws {
    let ingest = try token("ingest")
    let server = try serve(["--drain-timeout", "2", "--request-timeout", "120", "--idle-timeout", "120"])
    let connection = try RawConnection(port: server.port)
    connection.send(
      "POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ingest)\r\n"
        + "Content-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n{")
    Thread.sleep(forTimeInterval: 0.5)
    let started = ContinuousClock.now
    _ = server.stop(SIGTERM)
    // 2 s of drain, then the request is cancelled; 5 s more at the very most before the process
    // ends itself.
    #expect(ContinuousClock.now - started < .seconds(9))
    withExtendedLifetime(connection) {}
  }
}

/// The smaller faults an operator and a script met: `push` and a line too large, a push that
/// writes nothing under the user's home, an IPv6 address to listen on, and the words of a port
/// in use.
@Suite(.waitsOnProcesses) struct CollectorSmallFaultsTests: CollectorSuite {
  let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder()
  }

  @Test func pushNamesALineTooLargeByItsNumberAndGoesOnWithTheRest() throws {
    let ingest = try token()
    let server = try CollectorProcess(db: "collector.sqlite", in: folder.url, options: ["--max-line-bytes", "400"])
    let start = SessionLines.make(prefix: "first", sessions: 1, events: 1)[0]
    let big =
      #"{"session":"first-0","seq":2,"at":"2026-11-21T10:00:01.000Z","op":{"op":"push","screen":""#
      + String(repeating: "x", count: 500) + #""}}"#
    let other = SessionLines.make(prefix: "second", sessions: 1, events: 1)[0]
    try [start, big, other].joined(separator: "\n").write(
      toFile: folder.path("lines.jsonl"), atomically: true, encoding: .utf8)
    // A home of its own: push keeps nothing of its exchanges there (no URL cache). Foundation on
    // Linux makes its cache folders whenever a URLSession is made; they stay empty.
    let home = folder.path("home")
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let pushed = try navstore(
      ["push", "lines.jsonl", "--to", server.url, "--token", ingest, "--batch", "3"],
      environment: ["HOME": home, "XDG_CACHE_HOME": home + "/.cache"])
    #expect(pushed.status == 1)
    #expect(pushed.stdout.contains("3 events") && pushed.stdout.contains("2 accepted, 0 duplicates, 1 rejected"))
    #expect(pushed.stderr.contains("first line 2 of the 3 sent (too-large)"), "\(pushed.stderr)")
    let written = try FileManager.default.subpathsOfDirectory(atPath: home).filter { path in
      var isFolder: ObjCBool = false
      return FileManager.default.fileExists(atPath: home + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
    }
    #expect(written.isEmpty, "push wrote \(written) under its home")
    #expect(server.stop(SIGTERM) == 0)
    let stored = try navstore(["sessions", "--db", "collector.sqlite", "--app", "drill", "--json"])
    #expect(stored.stdout.contains(#""session":"second-0""#), "the session after the line too large was sent")
  }

  @Test func anIPv6AddressInBracketsIsListenedOn() throws {
    let server = try CollectorProcess(db: "collector.sqlite", in: folder.url, host: "[::1]")
    #expect(server.url.hasPrefix("http://[::1]:"), "\(server.url)")
    // curl, since Foundation on Linux does not take an IPv6 literal in a URL.
    #expect(try NavStoreProcess.shell("curl -s -f -g --max-time 5 '\(server.url)/healthz'") == 0)
    #expect(server.stop(SIGTERM) == 0)
    let unbracketed = try navstore(["serve", "--db", "collector.sqlite", "--listen", "::1:8740"])
    #expect(unbracketed.status != 0 && unbracketed.stderr.contains("[IPv6]:PORT"), "\(unbracketed.stderr)")
  }

  @Test func aPortInUseIsSaidInOneSentence() throws {
    let server = try CollectorProcess(db: "collector.sqlite", in: folder.url)
    let address = "127.0.0.1:\(server.port)"
    let second = try navstore(["serve", "--db", "collector.sqlite", "--listen", address])
    #expect(second.status == 1)
    #expect(second.stderr == "navstore: the collector stopped: \(address) is already in use (another collector?)\n")
    #expect(server.stop(SIGTERM) == 0)
  }
}
