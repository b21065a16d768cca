import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NavCollector
import NavContract
@_spi(Internals) import NavCore
import NavFleet
import NavPersistence
import NavTestSupport
import NavUpload
import Testing

/// The collector's contract through Hummingbird's router (and once live on loopback): every
/// status of its table, the upload's outcomes, and apps that never meet.
@Suite struct CollectorContractTests {
  let folder: TemporaryFolder
  let store: SQLiteFleet
  let ingest: String
  let reader: String
  let otherApp: String

  init() throws {
    folder = try TemporaryFolder()
    store = try SQLiteFleet(path: folder.path("collector.sqlite"))
    ingest = try store.createToken(app: AppName("shop"), role: .ingest).text
    reader = try store.createToken(app: AppName("shop"), role: .read).text
    otherApp = try store.createToken(app: AppName("blog"), role: .ingest).text
  }

  static let start =
    #"{"session":"s-1","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}}"#
  static let push = #"{"session":"s-1","seq":2,"at":"2026-11-21T10:00:01.000Z","op":{"op":"push","screen":"cart"}}"#

  func app(limits: UploadLimits = .contract, configuration: CollectorConfiguration = CollectorConfiguration())
    -> some ApplicationProtocol
  {
    var configuration = configuration
    configuration.limits = limits
    return Application(router: Collector.router(fleet: store, configuration: configuration))
  }

  func headers(_ token: String?, gzip: Bool = false, type: String = "application/x-ndjson") -> HTTPFields {
    var fields: HTTPFields = [.contentType: type]
    if let token { fields[.authorization] = "Bearer \(token)" }
    if gzip { fields[.contentEncoding] = "gzip" }
    return fields
  }

  static func json(_ response: TestResponse) throws -> JSONValue {
    try WireFormat.decode(JSONValue.self, from: String(buffer: response.body))
  }

  static func gzip(_ text: String) throws -> ByteBuffer {
    ByteBuffer(bytes: try Gzip.compress(Array(text.utf8)))
  }

  @Test func anUploadIsStoredAndAResendIsOnlyDuplicates() async throws {
    let body = ByteBuffer(string: Self.start + "\n" + Self.push + "\n")
    try await app().test(.router) { client in
      for expected in [(2, 0), (0, 2)] {
        try await client.execute(uri: "/v1/events", method: .post, headers: headers(ingest), body: body) { response in
          #expect(response.status == .ok)
          let answer = try Self.json(response)
          #expect(
            answer["accepted"] == .number(Double(expected.0)) && answer["duplicates"] == .number(Double(expected.1)))
          #expect(answer["rejected"] == .array([]))
          #expect(answer["heads"]?["s-1"]?["seq"] == 2)
        }
      }
      try await client.execute(uri: "/v1/sessions/s-1/head", method: .get, headers: headers(reader)) { response in
        #expect(response.status == .ok)
        let answer = try Self.json(response)
        #expect(answer["seq"] == 2)
      }
    }
    #expect(try await store.store(of: AppName("shop")).read { try $0.summary(of: sessionID("s-1")) }.eventCount == 2)
  }

  /// One upload with a line of each outcome, over HTTP: the answer names each line's reason,
  /// counts the others, and gives every named session's head.
  @Test func everyPerLineOutcomeOverHTTP() async throws {
    func line(_ session: String, _ seq: Int, _ op: String, hash: String? = nil) -> String {
      let hashField = hash.map { #","hash":"\#($0)""# } ?? ""
      return #"{"session":"\#(session)","seq":\#(seq),"at":"2026-11-21T10:00:0\#(seq).000Z","op":\#(op)\#(hashField)}"#
    }
    let home = #"{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}"#
    let elsewhere = #"{"op":"start","state":{"routes":[{"screen":"elsewhere","style":"root","withNavigation":true}]}}"#
    let first = [line("known", 1, home), line("other", 1, home)]
    let upload = [
      line("new", 1, home),  // 1 accepted
      line("known", 1, home),  // 2 duplicate
      line("known", 2, #"{"op":"pop"}"#),  // 3 illegal: a pop at the root
      line("stranger", 1, #"{"op":"push","screen":"x"}"#),  // 4 unknown-session
      line("late", 3, home),  // 5 gap: seq 3 of a new session
      line("other", 1, elsewhere),  // 6 conflict: seq 1 holds another event
      line("hashed", 1, home, hash: String(repeating: "0", count: 64)),  // 7 hash
      #"{"session":"d","at":"2026-11-21T10:00:00.000Z","op":{"op":"fly"}}"#,  // 8 invalid
      line("known", 3, #"{"op":"push","screen":"y"}"#),  // 9 gap: after its session's rejected line
    ]
    try await app().test(.router) { client in
      for (lines, check) in [(first, false), (upload, true)] {
        let body = ByteBuffer(string: lines.joined(separator: "\n"))
        try await client.execute(uri: "/v1/events", method: .post, headers: headers(ingest), body: body) { response in
          #expect(response.status == .ok)
          guard check else { return }
          let answer = try Self.json(response)
          #expect(answer["accepted"] == 1 && answer["duplicates"] == 1)
          guard case .array(let rejected)? = answer["rejected"] else {
            Issue.record("no rejected list")
            return
          }
          #expect(rejected.map { $0["line"] } == [3, 4, 5, 6, 7, 8, 9])
          #expect(
            rejected.map { $0["reason"] }
              == ["illegal", "unknown-session", "gap", "conflict", "hash", "invalid", "gap"])
          #expect(answer["heads"]?["known"]?["seq"] == 1 && answer["heads"]?["new"]?["seq"] == 1)
          #expect(answer["heads"]?["stranger"] == ["seq": 0, "hash": .null])
        }
      }
    }
  }

  @Test func aBadLineRejectsItselfAndTheAnswerSaysWhy() async throws {
    let other = Self.start.replacingOccurrences(of: "s-1", with: "s-2")
    let pop = #"{"session":"s-1","seq":2,"at":"2026-11-21T10:00:01.000Z","op":{"op":"pop"}}"#
    let body = ByteBuffer(string: [Self.start, pop, other, "not json"].joined(separator: "\n"))
    try await app().test(.router) { client in
      try await client.execute(uri: "/v1/events", method: .post, headers: headers(ingest), body: body) { response in
        #expect(response.status == .ok)
        let answer = try Self.json(response)
        #expect(answer["accepted"] == 2)
        guard case .array(let rejected)? = answer["rejected"] else {
          Issue.record("no rejected list")
          return
        }
        #expect(rejected.map { $0["line"] } == [2, 4])
        #expect(rejected.map { $0["reason"] } == ["illegal", "invalid"])
        #expect(rejected.first?["session"] == "s-1" && rejected.first?["seq"] == 2)
      }
    }
  }

  @Test func everyRefusalOfTheTable() async throws {
    let body = ByteBuffer(string: Self.start + "\n")
    let revoked = try store.createToken(app: AppName("shop"), role: .ingest)
    try store.revokeToken(revoked.token.id)
    try await app(limits: UploadLimits(lineBytes: 400, requestLines: 2, requestBytes: 1_000)).test(.router) { client in
      func status(_ uri: String, _ fields: HTTPFields, _ body: ByteBuffer? = nil, method: HTTPRequest.Method = .post)
        async throws -> (HTTPResponse.Status, JSONValue?)
      {
        try await client.execute(uri: uri, method: method, headers: fields, body: body) { response in
          (response.status, try? Self.json(response))
        }
      }
      // 401: none, unknown, revoked, not a bearer; and the challenge header.
      for fields in [
        headers(nil), headers("nvs_0000000000000000_" + String(repeating: "0", count: 64)), headers(revoked.text),
        [.authorization: "Basic abc", .contentType: "application/x-ndjson"],
      ] {
        let (code, answer) = try await status("/v1/events", fields, body)
        #expect(code == .unauthorized && answer?["error"] == "unauthorized")
      }
      try await client.execute(uri: "/v1/limits", method: .get) { response in
        #expect(response.headers[.wwwAuthenticate] == "Bearer")
      }
      // 403: a read token does not upload.
      #expect(try await status("/v1/events", headers(reader), body).0 == .forbidden)
      // 404: no such session, another app's session, no such endpoint.
      #expect(try await status("/v1/sessions/nope/head", headers(reader), method: .get).0 == .notFound)
      #expect(try await status("/v1/nothing", headers(reader), method: .get).0 == .notFound)
      #expect(try await status("/v1/limits", headers(reader), method: .delete).0 == .notFound)
      // Without a valid token, an endpoint that does not exist is no different: 401.
      #expect(try await status("/v1/nothing", headers(nil), method: .get).0 == .unauthorized)
      #expect(try await status("/v1/limits", headers(nil), method: .delete).0 == .unauthorized)
      // 413: a line, a request's lines, a request's bytes, a gzip that inflates past the limit.
      let long = ByteBuffer(string: String(repeating: "x", count: 401) + "\n")
      #expect(try await status("/v1/events", headers(ingest), long).0 == .contentTooLarge)
      let lines = ByteBuffer(string: String(repeating: Self.start + "\n", count: 3))
      #expect(try await status("/v1/events", headers(ingest), lines).0 == .contentTooLarge)
      let bomb = try Self.gzip(String(repeating: "\n", count: 100_000))
      let (bombCode, bombAnswer) = try await status("/v1/events", headers(ingest, gzip: true), bomb)
      #expect(bombCode == .contentTooLarge && bombAnswer?["error"] == "too-large")
      // 415: another type, another encoding.
      #expect(
        try await status("/v1/events", headers(ingest, type: "application/json"), body).0 == .unsupportedMediaType)
      var brotli = headers(ingest)
      brotli[.contentEncoding] = "br"
      #expect(try await status("/v1/events", brotli, body).0 == .unsupportedMediaType)
      // 400: gzip that is not.
      #expect(try await status("/v1/events", headers(ingest, gzip: true), body).0 == .badRequest)
      // Nothing of the refused requests was stored.
      #expect(try await status("/v1/sessions/s-1/head", headers(reader), method: .get).0 == .notFound)
      // The operating endpoints need no token.
      #expect(try await status("/healthz", [:], method: .get).0 == .ok)
      #expect(try await status("/readyz", [:], method: .get).0 == .ok)
    }
  }

  @Test func appsNeverMeet() async throws {
    let body = ByteBuffer(string: Self.start + "\n")
    try await app().test(.router) { client in
      try await client.execute(uri: "/v1/events", method: .post, headers: headers(ingest), body: body) { response in
        #expect(response.status == .ok)
      }
      // The other app's token: the session does not exist for it, and its own s-1 is another.
      try await client.execute(uri: "/v1/sessions/s-1/head", method: .get, headers: headers(otherApp)) { response in
        #expect(response.status == .notFound)
      }
      let both = ByteBuffer(string: Self.start + "\n" + Self.push + "\n")
      try await client.execute(uri: "/v1/events", method: .post, headers: headers(otherApp), body: both) { response in
        let answer = try Self.json(response)
        #expect(answer["accepted"] == 2, "a new session in its own app")
      }
      try await client.execute(uri: "/v1/sessions/s-1/head", method: .get, headers: headers(reader)) { response in
        let answer = try Self.json(response)
        #expect(answer["seq"] == 1, "shop's s-1 is unchanged")
      }
    }
    #expect(try await store.store(of: AppName("blog")).read { try $0.summary(of: sessionID("s-1")) }.eventCount == 2)
    #expect(throws: StoreError.self) { try store.main.summary(of: sessionID("s-1")) }
  }

  @Test func backpressureIsAStatusWithRetryAfter() async throws {
    // One request in 1,000 s past the burst: a busy machine cannot refill the bucket mid-test.
    let limited = CollectorConfiguration(clientRate: RequestRate(perSecond: 0.001, burst: 2))
    try await app(configuration: limited).test(.router) { client in
      var statuses: [HTTPResponse.Status] = []
      for _ in 0..<3 {
        try await client.execute(uri: "/v1/limits", method: .get, headers: headers(reader)) { response in
          statuses.append(response.status)
          if response.status == .tooManyRequests {
            // The whole seconds until the bucket holds a request again: about 1,000 at this rate.
            let wait = response.headers[.retryAfter].flatMap { Int($0) } ?? 0
            #expect((900...1_000).contains(wait), "Retry-After \(wait)")
          }
        }
      }
      #expect(statuses == [.ok, .ok, .tooManyRequests])
      // Another token has its own bucket.
      try await client.execute(uri: "/v1/limits", method: .get, headers: headers(ingest)) { response in
        #expect(response.status == .ok)
      }
    }
    try await app(configuration: CollectorConfiguration(openUploads: OpenRequestLimit(total: 0, perClient: 4))).test(
      .router
    ) { client in
      try await client.execute(
        uri: "/v1/events", method: .post, headers: headers(ingest), body: ByteBuffer(string: Self.start)
      ) {
        response in
        #expect(response.status == .serviceUnavailable && response.headers[.retryAfter] == "1")
      }
    }
    #expect(throws: StoreError.self) { try store.store(of: AppName("shop")).summary(of: sessionID("s-1")) }
  }

  @Test func metricsCountRequestsAndLines() async throws {
    let pop = #"{"session":"s-1","seq":2,"at":"2026-11-21T10:00:01.000Z","op":{"op":"pop"}}"#
    try await app().test(.router) { client in
      try await client.execute(
        uri: "/v1/events", method: .post, headers: headers(ingest), body: ByteBuffer(string: Self.start + "\n" + pop))
      try await client.execute(
        uri: "/v1/events", method: .post, headers: headers(nil), body: ByteBuffer(string: Self.start))
      try await client.execute(uri: "/metrics", method: .get) { response in
        let text = String(buffer: response.body)
        #expect(text.contains(#"navstore_upload_lines_total{outcome="accepted",reason=""} 1"#), "\(text)")
        #expect(text.contains(#"navstore_upload_lines_total{outcome="rejected",reason="illegal"} 1"#))
        #expect(text.contains(#"navstore_http_requests_total{endpoint="/v1/events",status="200"} 1"#))
        #expect(text.contains(#"navstore_http_requests_total{endpoint="/v1/events",status="401"} 1"#))
        #expect(text.contains("navstore_commit_duration_seconds_bucket"))
        #expect(!text.contains("nvs_"), "no token in the metrics")
      }
    }
  }

  @Test func liveOnLoopbackAGzippedUploadIsStored() async throws {
    let body = try Self.gzip(Self.start + "\n" + Self.push + "\n")
    try await app().test(.live) { client in
      try await client.execute(uri: "/v1/events", method: .post, headers: headers(ingest, gzip: true), body: body) {
        response in
        #expect(response.status == .ok)
        let answer = try Self.json(response)
        #expect(answer["accepted"] == 2)
      }
    }
  }

  /// `/metrics` asks for the configured token when there is one (a scraper's), in constant time,
  /// and is open otherwise.
  @Test func theMetricsAskForTheirTokenWhenGivenOne() async throws {
    var configuration = CollectorConfiguration()
    configuration.metricsToken = "scraper-7f3a"
    let guarded = Application(router: Collector.router(fleet: store, configuration: configuration))
    try await guarded.test(.router) { client in
      for (token, status) in [(nil, HTTPResponse.Status.unauthorized), ("wrong", .unauthorized), ("scraper-7f3a", .ok)]
      {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        try await client.execute(uri: "/metrics", method: .get, headers: headers) { #expect($0.status == status) }
      }
    }
    try await app().test(.router) { client in
      try await client.execute(uri: "/metrics", method: .get) { #expect($0.status == .ok) }
    }
  }

  @Test func headsOfManySessionsComeInOneRequestAndOnlyForTheTokensApp() async throws {
    let body = ByteBuffer(string: Self.start + "\n" + Self.push + "\n")
    // The other app holds a session of the same id, further along: it is not this app's.
    let other = Self.start.replacingOccurrences(of: "\"s-1\"", with: "\"s-2\"")
    try await app().test(.router) { client in
      try await client.execute(uri: "/v1/events", method: .post, headers: headers(ingest), body: body) { response in
        #expect(response.status == .ok)
      }
      try await client.execute(
        uri: "/v1/events", method: .post, headers: headers(otherApp), body: ByteBuffer(string: other + "\n")
      ) { response in #expect(response.status == .ok) }
      let asked = try ContractJSON.encode(HeadsRequest(sessions: [sessionID("s-1"), sessionID("s-2")]))
      for token in [ingest, reader] {
        try await client.execute(
          uri: "/v1/heads", method: .post, headers: headers(token, type: "application/json"),
          body: ByteBuffer(bytes: asked)
        ) { response in
          #expect(response.status == .ok)
          let answer = try ContractJSON.decode(HeadsAnswer.self, from: Array(buffer: response.body))
          #expect(answer.heads[sessionID("s-1")]?.seq == 2)
          // The chain value to a reader only: with the next one, it would let anyone holding
          // the public ingest token guess the event between them.
          #expect(answer.heads[sessionID("s-1")]?.hash?.count == (token == reader ? 64 : nil))
          #expect(answer.heads[sessionID("s-2")] == SessionHead.none, "another app's session is none of this one's")
          #expect(String(buffer: response.body).contains(#""s-2":{"hash":null,"seq":0}"#))
        }
      }
      // Past the limit, not JSON, not session ids, another type: refused, in the contract's words.
      let tooMany = try ContractJSON.encode(
        HeadsRequest(sessions: (0...HeadsRequest.maximumSessions).map { sessionID("s-\($0)") }))
      let refusals: [(ByteBuffer, String, HTTPResponse.Status, String)] = [
        (ByteBuffer(bytes: tooMany), "application/json", .contentTooLarge, "too-large"),
        (ByteBuffer(string: "[1, 2]"), "application/json", .badRequest, "bad-request"),
        (ByteBuffer(string: #"{"sessions": [""]}"#), "application/json", .badRequest, "bad-request"),
        (ByteBuffer(string: #"{"sessions": ["s-1"], "extra": 1}"#), "application/json", .badRequest, "bad-request"),
        (
          ByteBuffer(string: #"{"sessions": []}"#), "application/x-ndjson", .unsupportedMediaType,
          "unsupported-media-type"
        ),
      ]
      for (refused, type, status, code) in refusals {
        try await client.execute(
          uri: "/v1/heads", method: .post, headers: headers(ingest, type: type), body: refused
        ) { response in
          #expect(response.status == status, "\(String(buffer: refused).prefix(40))")
          let refusal = try ContractJSON.decode(ErrorBody.self, from: Array(buffer: response.body))
          #expect(refusal.error == code)
        }
      }
      try await client.execute(
        uri: "/v1/heads", method: .post, headers: headers(nil, type: "application/json"),
        body: ByteBuffer(bytes: asked)
      ) { response in #expect(response.status == .unauthorized) }
    }
  }

  /// "é" written as one scalar and as "e" and a combining accent are two session ids (ids are
  /// compared by their bytes), but one key of a JSON object: heads naming both are refused,
  /// saying to ask for them one at a time, and each one alone is answered, its own.
  @Test func idsThatDifferOnlyInNormalizationAreAskedOneAtATime() async throws {
    let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
    let starts = [composed, decomposed].enumerated().map { index, id in
      #"{"session":"\#(id)","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"s\#(index)","style":"root"}]}}}"#
    }
    let asked = #"{"sessions": ["\#(composed)", "\#(decomposed)"]}"#
    try await app().test(.router) { client in
      try await client.execute(
        uri: "/v1/events", method: .post, headers: headers(ingest), body: ByteBuffer(string: starts[0] + "\n")
      ) { #expect($0.status == .ok) }
      try await client.execute(
        uri: "/v1/heads", method: .post, headers: headers(reader, type: "application/json"),
        body: ByteBuffer(string: asked)
      ) { response in
        #expect(response.status == .badRequest)
        #expect(String(buffer: response.body).contains("one at a time"))
      }
      for (id, seq) in [(composed, 1), (decomposed, 0)] {
        let path = "/v1/sessions/" + ContractPath.segment(id) + "/head"
        try await client.execute(uri: path, method: .get, headers: headers(reader)) { response in
          if seq == 0 {
            #expect(response.status == .notFound)
          } else {
            #expect(response.status == .ok && String(buffer: response.body).contains(#""seq":1"#))
          }
        }
      }
    }
  }

}
