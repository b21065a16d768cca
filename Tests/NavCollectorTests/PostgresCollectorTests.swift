import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
@_spi(Internals) import NavCore
import NavPersistence
import NavTestSupport
import Testing

@testable import NavCollector
@testable import NavFleet

/// The collector's contract with PostgreSQL behind it: the same requests, sent to a collector
/// on a SQLite store and to one on PostgreSQL, get the same statuses and the same bodies, byte
/// for byte; and a database that does not answer is a 503 with `Retry-After`, never a 500.
@Suite(.waitsOnProcesses, .enabled(if: TestPostgres.runs, TestPostgres.skipReason))
struct PostgresCollectorTests {
  /// A collector's router on each store, with an ingest and a read token of app `shop` on each
  /// (and a read token of another app).
  struct Pair {
    let folder: TemporaryFolder
    let sqlite: SQLiteFleet
    let postgres: PostgresFleet
    let pool: Task<Void, Never>
    let tokens: [String: (sqlite: String, postgres: String)]

    /// A collector on each store, with rates high enough that no request is refused for coming
    /// too fast.
    func collectors() -> (sqlite: some ApplicationProtocol, postgres: some ApplicationProtocol) {
      var roomy = CollectorConfiguration()
      roomy.clientRate = RequestRate(perSecond: 100_000, burst: 100_000)
      roomy.tokenRate = RequestRate(perSecond: 100_000, burst: 100_000)
      return (
        Application(router: Collector.router(fleet: sqlite, configuration: roomy)),
        Application(router: Collector.router(backend: PostgresBackend(fleet: postgres), configuration: roomy))
      )
    }
  }

  static func pair() async throws -> Pair {
    let url = try #require(TestPostgres.url, "NAVSTORE_REQUIRE_POSTGRES=1, but NAVSTORE_POSTGRES_URL names no server")
    let folder = try TemporaryFolder()
    let sqlite = try SQLiteFleet(path: folder.path("collector.sqlite"))
    let postgres = PostgresFleet(
      address: try PostgresAddress(url), connections: 4, operationTimeout: TestPostgres.patientOperationTimeout)
    let pool = Task { await postgres.run() }
    _ = try await postgres.migrate()
    // Apps of their own in the shared database, named the same on both sides in the answers'
    // eyes (an app's name is in no answer).
    let shop = try AppName(TestPostgres.uniqueApp("shop"))
    let blog = try AppName(TestPostgres.uniqueApp("blog"))
    var tokens: [String: (String, String)] = [:]
    for (name, app, role) in [("ingest", shop, TokenRole.ingest), ("read", shop, .read), ("blog", blog, .read)] {
      let local = try sqlite.createToken(app: name == "blog" ? AppName("blog") : AppName("shop"), role: role).text
      tokens[name] = (local, try await postgres.createToken(app: app, role: role).text)
    }
    return Pair(folder: folder, sqlite: sqlite, postgres: postgres, pool: pool, tokens: tokens)
  }

  struct Request {
    var uri: String
    var method: HTTPRequest.Method = .get
    var token: String? = "read"
    var body: String? = nil
    /// The token goes in the console's cookie, not as a bearer.
    var console = false
  }

  /// Ten minutes ago, on the minute, and `seconds` after: a session in the console overview's
  /// window (the last days), and never ahead of the collectors' clocks, which list a session
  /// dated ahead below the others (noon, as this was, is ahead every morning).
  static let recently = (Timestamp.now.millisecondsSince1970 / 60_000 - 10) * 60_000

  static func today(_ seconds: Int) -> String {
    Timestamp(millisecondsSince1970: recently + Int64(seconds) * 1_000).rfc3339
  }

  static func line(_ session: String, _ seq: Int, _ op: String, hash: String? = nil) -> String {
    let hashField = hash.map { #","hash":"\#($0)""# } ?? ""
    return
      #"{"session":"\#(session)","seq":\#(seq),"at":"2026-11-21T10:00:\#(10 + seq).000Z","op":\#(op)\#(hashField)}"#
  }

  static let home = #"{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}"#
  static let homeWithContext =
    #"{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]},"context":{"appVersion":"4.2","osName":"iOS"}}"#

  /// Uploads of every outcome, then every read endpoint the two stores both serve, with good and
  /// bad parameters.
  static let requests: [Request] = {
    let uploads = [
      [line("a", 1, home), line("a", 2, #"{"op":"push","screen":"cart"}"#), line("b", 1, homeWithContext)],
      [
        line("a", 1, home), line("a", 3, #"{"op":"push","screen":"pay"}"#), line("a", 3, #"{"op":"pop"}"#),
        line("c", 1, #"{"op":"push","screen":"x"}"#), line("d", 2, home), line("b", 1, home),
        line("e", 1, home, hash: String(repeating: "0", count: 64)),
        #"{"session":"f","at":"2026-11-21T10:00:00.000Z","op":{"op":"fly"}}"#, "",
        line("b", 2, #"{"op":"background"}"#), line("b", 3, #"{"op":"foreground"}"#),
      ],
      // Today's, for the console's overview.
      [
        #"{"session":"n","seq":1,"at":"\#(today(1))","op":\#(home)}"#,
        #"{"session":"n","seq":2,"at":"\#(today(4))","op":{"op":"push","screen":"cart"}}"#,
        #"{"session":"n","seq":3,"at":"\#(today(9))","op":{"op":"push","screen":"pay"}}"#,
        #"{"session":"n","seq":4,"at":"\#(today(11))","op":{"op":"pop"}}"#,
        #"{"session":"n","seq":4,"at":"\#(today(12))","op":{"op":"fly"}}"#,
      ],
    ]
    var requests = uploads.map {
      Request(uri: "/v1/events", method: .post, token: "ingest", body: $0.joined(separator: "\n"))
    }
    requests += [
      Request(uri: "/v1/events", method: .post, token: "read", body: line("z", 1, home)),
      Request(uri: "/v1/events", method: .post, token: nil, body: line("z", 1, home)),
    ]
    for session in ["a", "b", "c", "nobody", "%2E"] {
      requests += [
        Request(uri: "/v1/sessions/\(session)/head", token: "ingest"),
        Request(uri: "/v1/sessions/\(session)/head"),
        Request(uri: "/v1/sessions/\(session)/history"),
        Request(uri: "/v1/sessions/\(session)/history?from=2"),
        Request(uri: "/v1/sessions/\(session)/history?from=9"),
        Request(uri: "/v1/sessions/\(session)/state"),
        Request(uri: "/v1/sessions/\(session)/state?at=1"),
        Request(uri: "/v1/sessions/\(session)/state?at=99"),
        Request(uri: "/v1/sessions/\(session)/head", token: "blog"),
        Request(uri: "/v1/sessions/\(session)/report"),
        Request(uri: "/v1/sessions/\(session)/report?at=1&omit_payloads=true"),
        Request(uri: "/v1/sessions/\(session)/report?at=50"),
        Request(uri: "/v1/sessions/\(session)/bundle"),
        Request(uri: "/v1/sessions/\(session)/bundle?keep_personal=true"),
        Request(uri: "/v1/sessions/\(session)/bundle", token: "ingest"),
      ]
    }
    for query in [
      "", "?sort=id", "?limit=1", "?limit=1&sort=id", "?app_version=4.2", "?restored=false", "?failing=true",
      "?failing=false", "?screen=cart", "?screen=home&limit=1", "?screen=nowhere", "?since=2026-11-21",
      "?until=2026-11-20", "?limit=0", "?sort=size", "?after=nonsense",
    ] {
      requests.append(Request(uri: "/v1/sessions" + query))
    }
    for table in ["events", "sessions", "screen-views", "transitions", "nothing"] {
      for query in [
        "format=csv", "format=jsonl", "format=csv&since=2026-11-21T10:00:12Z", "format=csv&omit_payloads=true",
        "format=jsonl&session=b", "format=csv&session=nobody", "format=xml", "",
      ] {
        requests.append(Request(uri: "/v1/export/\(table)?\(query)"))
      }
    }
    requests.append(Request(uri: "/v1/sessions", token: "blog"))
    requests.append(Request(uri: "/v1/sessions", token: "ingest"))
    // The console's pages, on either store.
    for path in [
      "/console/sessions", "/console/sessions?screen=cart", "/console/sessions?failing=true",
      "/console/sessions?id_prefix=a", "/console/sessions?restored_from=a", "/console/sessions?since=nonsense",
      "/console/sessions/a", "/console/sessions/n", "/console/sessions/nobody", "/console/sessions/a/report",
      "/console/sessions/n/history.jsonl", "/console/sessions/b/fixture.jsonl", "/console/fleet",
      "/console/fleet?days=30", "/console/fleet?days=2",
    ] {
      requests.append(Request(uri: path, console: true))
    }
    requests.append(Request(uri: "/console/sessions/a", token: "blog", console: true))
    return requests
  }()

  @Test func theSameRequestsGetTheSameAnswersFromBothStores() async throws {
    let pair = try await Self.pair()
    defer { pair.pool.cancel() }
    let (local, shared) = pair.collectors()
    let answers = try await Self.answers(local, tokens: pair.tokens.mapValues(\.sqlite))
    let got = try await Self.answers(shared, tokens: pair.tokens.mapValues(\.postgres))
    #expect(got.count == answers.count)
    for (index, (expected, answer)) in zip(answers, got).enumerated() {
      #expect(answer.status == expected.status, "\(Self.requests[index].uri): status")
      #expect(answer.body == expected.body, "\(Self.requests[index].uri): body")
    }
    // The uploads and reads above ran: the answers are not all refusals.
    #expect(answers.filter { $0.status == 200 }.count > 20)
    // Today's session is in the console's overview on both: its screens, and the line refused.
    let fleet = try #require(Self.requests.firstIndex { $0.uri == "/console/fleet" })
    #expect(got[fleet].status == 200)
    #expect(got[fleet].body.contains("<title>pay: "))
    #expect(got[fleet].body.contains("<title>invalid: "))
  }

  /// A database that does not answer (nothing listens on its port): the probes say so, uploads
  /// and reads are 503 with `Retry-After`, and `/healthz` still answers.
  @Test func aDatabaseThatDoesNotAnswerIsA503WithRetryAfter() async throws {
    let address = try PostgresAddress("postgres://navstore@127.0.0.1:\(try Self.closedPort())/navstore?sslmode=disable")
    let fleet = PostgresFleet(address: address, connections: 2, operationTimeout: .seconds(2))
    let pool = Task { await fleet.run() }
    defer { pool.cancel() }
    let app = Application(router: Collector.router(backend: PostgresBackend(fleet: fleet)))
    let token = "nvs_" + String(repeating: "a", count: 16) + "_" + String(repeating: "b", count: 64)
    try await app.test(.router) { client in
      try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
      try await client.execute(uri: "/readyz", method: .get) { response in
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] != nil)
      }
      for (uri, method) in [("/v1/events", HTTPRequest.Method.post), ("/v1/sessions", .get)] {
        let headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/x-ndjson"]
        try await client.execute(
          uri: uri, method: method, headers: headers, body: ByteBuffer(string: Self.line("s", 1, Self.home))
        ) { response in
          #expect(response.status == .serviceUnavailable, "\(uri)")
          #expect(response.headers[.retryAfter] != nil)
          #expect(!String(buffer: response.body).contains("navstore@"), "the answer names no part of the address")
        }
      }
    }
  }

  /// Every request of `requests` sent to `application` in turn, with the tokens named: each
  /// answer's status and body.
  static func answers(_ application: some ApplicationProtocol, tokens: [String: String]) async throws
    -> [(status: Int, body: String)]
  {
    try await application.test(.router) { client in
      var answers: [(status: Int, body: String)] = []
      for request in requests {
        var headers: HTTPFields = [.contentType: "application/x-ndjson"]
        if let name = request.token, let token = tokens[name] {
          headers[request.console ? .cookie : .authorization] =
            request.console ? try await ConsoleTests.signIn(client, with: token) : "Bearer \(token)"
        }
        let body = request.body.map { ByteBuffer(string: $0) }
        answers.append(
          try await client.execute(uri: request.uri, method: request.method, headers: headers, body: body) { response in
            (Int(response.status.code), withoutRequestID(String(buffer: response.body)))
          })
      }
      return answers
    }
  }

  /// Reads from a hot standby (`serve --read-db`): an upload goes to the primary, and once the
  /// standby has replayed it, the read endpoints answer from the standby, whose own views show
  /// the collector's reading connections.
  @Test(
    .enabled(if: TestPostgres.replicaURL != nil || TestPostgres.isRequired, "no standby: NAVSTORE_POSTGRES_REPLICA_URL")
  )
  func theReadEndpointsAnswerFromAReplica() async throws {
    let primaryURL = try #require(TestPostgres.url)
    let replicaURL = try #require(TestPostgres.replicaURL, "NAVSTORE_REQUIRE_POSTGRES=1, but no standby is named")
    let primary = PostgresFleet(
      address: try PostgresAddress(primaryURL), connections: 2, operationTimeout: TestPostgres.patientOperationTimeout)
    let replica = PostgresFleet(
      address: try PostgresAddress(replicaURL), connections: 2, operationTimeout: TestPostgres.patientOperationTimeout,
      applicationName: "navstore-reads-test")
    let pools = [Task { await primary.run() }, Task { await replica.run() }]
    defer { for pool in pools { pool.cancel() } }
    _ = try await primary.migrate()
    #expect(try TestPostgres.psql("SELECT pg_is_in_recovery()", on: replicaURL).hasPrefix("t"))
    let app = try AppName(TestPostgres.uniqueApp("replica"))
    let ingest = try await primary.createToken(app: app, role: .ingest).text
    let read = try await primary.createToken(app: app, role: .read).text
    let router = Collector.router(backend: PostgresBackend(fleet: primary, reads: replica))
    try await Application(router: router).test(.router) { client in
      let upload = [Self.line("r", 1, Self.home), Self.line("r", 2, #"{"op":"push","screen":"cart"}"#)]
      try await client.execute(
        uri: "/v1/events", method: .post,
        headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
        body: ByteBuffer(string: upload.joined(separator: "\n"))
      ) { #expect($0.status == .ok) }
      // The standby replays the commit within moments.
      var seen = false
      for _ in 0..<100 where !seen {
        try await client.execute(
          uri: "/v1/sessions/r/head", method: .get, headers: [.authorization: "Bearer \(read)"]
        ) { response in
          seen = response.status == .ok && String(buffer: response.body).contains(#""seq":2"#)
        }
        if !seen { try await Task.sleep(for: .milliseconds(50)) }
      }
      #expect(seen, "the standby never showed the upload")
      try await client.execute(
        uri: "/v1/sessions/r/history", method: .get, headers: [.authorization: "Bearer \(read)"]
      ) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).split(separator: "\n").count == 2)
      }
    }
    let readers = try TestPostgres.psql(
      "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'navstore-reads-test'", on: replicaURL)
    #expect(Int(readers.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "the reads went to the standby")
  }

  /// An answer's body without the request id, which differs by nature, nor the order in which
  /// the store received rows (a counter of writes on SQLite, a transaction id on PostgreSQL):
  /// `maskingReceived`.
  static func withoutRequestID(_ body: String) -> String {
    maskingReceived(body).replacingOccurrences(of: #""requestID":"[0-9a-f]+""#, with: "", options: .regularExpression)
      // The console names the app (each test's is its own in the shared database), and when
      // its collector started counting rejections.
      .replacingOccurrences(of: #"<span class="app">[^<]*</span>"#, with: "", options: .regularExpression)
      .replacingOccurrences(of: #"started at [0-9TZ:.-]+"#, with: "", options: .regularExpression)
  }

  /// A loopback port nothing listens on (bound, then closed).
  static func closedPort() throws -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
      }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
