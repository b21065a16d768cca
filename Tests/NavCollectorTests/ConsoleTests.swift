import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NavCollector
import NavContract
@_spi(Internals) import NavCore
import NavFleet
import NavJSON
import NavPersistence
import NavTestSupport
import Testing

/// The support console through Hummingbird's router: signing in and out with a read token in a
/// strict cookie, nothing shown without it, forms from other sites refused, another app's
/// session not found, markup from the store shown as text, and pages under a strict policy.
@Suite struct ConsoleTests {
  let folder: TemporaryFolder
  let store: SQLiteFleet
  let ingest: String
  let reader: String
  let otherReader: String

  init() throws {
    folder = try TemporaryFolder()
    store = try SQLiteFleet(path: folder.path("collector.sqlite"))
    ingest = try store.createToken(app: AppName("shop"), role: .ingest).text
    reader = try store.createToken(app: AppName("shop"), role: .read).text
    otherReader = try store.createToken(app: AppName("blog"), role: .read).text
  }

  /// A session whose id, screen and cause are markup.
  static let hostileID = #"<b id="x">s</b>"#
  static let lines = [
    #"{"session":"s-1","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]}}}"#,
    #"{"session":"<b id=\"x\">s</b>","seq":1,"at":"2026-11-21T10:00:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"<img src=x onerror=alert(1)>","style":"root","withNavigation":true}]}}}"#,
    #"{"session":"s-2","seq":1,"at":"2026-11-21T10:05:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]},"restoredFrom":{"session":"s-1","seq":1}}}"#,
    #"{"session":"<b id=\"x\">s</b>","seq":2,"at":"2026-11-21T10:00:01.000Z","origin":"user","cause":{"tapped":"<script>alert(2)</script>"},"op":{"op":"push","screen":"cart"}}"#,
  ]

  /// The cookie (`navstore_console=PASS`) a sign-in with `token` through `client` sets: a pass
  /// the store keeps, as a browser gets one.
  static func signIn(_ client: some TestClientProtocol, with token: String) async throws -> String {
    try await client.execute(
      uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
      body: ByteBuffer(string: "token=" + token)
    ) { String(($0.headers[.setCookie] ?? "").split(separator: ";").first ?? "") }
  }

  func app(_ configuration: CollectorConfiguration = CollectorConfiguration()) -> some ApplicationProtocol {
    Application(router: Collector.router(fleet: store, configuration: configuration))
  }

  /// Uploads the sessions, then signs in with `token`: the cookie to send.
  func signedIn(_ client: some TestClientProtocol, as token: String) async throws -> String {
    try await client.execute(
      uri: "/v1/events", method: .post,
      headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
      body: ByteBuffer(string: Self.lines.joined(separator: "\n") + "\n")
    ) { #expect($0.status == .ok) }
    return try await client.execute(
      uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
      body: ByteBuffer(string: "token=" + token)
    ) { response in
      #expect(response.status == .seeOther)
      #expect(response.headers[.location] == "/console/sessions")
      let cookie = response.headers[.setCookie] ?? ""
      return String(cookie.split(separator: ";").first ?? "")
    }
  }

  @Test func withoutSigningInNothingOfTheAppIsShown() async throws {
    try await app().test(.router) { client in
      for path in [
        "/console/sessions", "/console/sessions/s-1", "/console/sessions/s-1/report",
        "/console/sessions/s-1/report.html", "/console/sessions/s-1/history.jsonl", "/console/open?id=s-1",
        "/console/fleet", "/console/sessions/s-2/fixture.jsonl",
      ] {
        try await client.execute(uri: path, method: .get) { response in
          #expect(response.status == .seeOther, "\(path)")
          // To sign in, and from there back to the page.
          #expect(response.headers[.location] == "/console/sign-in?next=" + ContractPath.segment(path), "\(path)")
          #expect(response.body.readableBytes == 0)
        }
        // A forged or stale cookie is no sign-in either.
        try await client.execute(uri: path, method: .get, headers: [.cookie: "navstore_console=nvs_0_0"]) {
          #expect($0.status == .seeOther, "\(path) with a cookie that is no token")
        }
      }
      try await client.execute(uri: "/console/sign-in", method: .get) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains(#"type="password""#))
      }
      try await client.execute(uri: "/console/assets/console.css", method: .get) { #expect($0.status == .ok) }
    }
  }

  /// The collector's own address leads to the console, and from there to signing in; it shows
  /// nothing of an app by itself.
  @Test func theCollectorsAddressLeadsToTheConsole() async throws {
    try await app().test(.router) { client in
      let next = try await client.execute(uri: "/", method: .get) { response in
        #expect(response.status == .seeOther)
        #expect(response.body.readableBytes == 0)
        return response.headers[.location] ?? ""
      }
      #expect(next == "/console/sessions")
      try await client.execute(uri: next, method: .get) { response in
        #expect(response.headers[.location] == "/console/sign-in?next=" + ContractPath.segment(next))
      }
    }
  }

  /// A ticket's link followed before signing in lands on its page once signed in; a `next` that
  /// leaves the console (another site, `//host`, a backslash) or signs out lands on the list.
  @Test func signingInReturnsToThePageAskedForAndOnlyToTheConsole() async throws {
    try await app().test(.router) { client in
      let asked = "/console/sessions?screen=cart&since=2026-11-20"
      let redirect = try await client.execute(uri: asked, method: .get) { $0.headers[.location] ?? "" }
      let form = try await client.execute(uri: redirect, method: .get) { String(buffer: $0.body) }
      #expect(
        form.contains(#"<input type="hidden" name="next" value="/console/sessions?screen=cart&amp;since=2026-11-20">"#))
      let cases = [
        (ContractPath.segment(asked), asked),
        (ContractPath.segment("/console/sessions/s-1"), "/console/sessions/s-1"),
        (ContractPath.segment("//evil.example/console/"), "/console/sessions"),
        (ContractPath.segment("https://evil.example/console/"), "/console/sessions"),
        (ContractPath.segment("/console/\\evil.example"), "/console/sessions"),
        (ContractPath.segment("/console/sign-out"), "/console/sessions"),
        (ContractPath.segment("/consolex"), "/console/sessions"),
        (ContractPath.segment("/console/x\r\nSet-Cookie: a=b"), "/console/sessions"),
        (ContractPath.segment("/console/../metrics"), "/console/sessions"),
        (ContractPath.segment("/console/%2E%2e/v1/sessions"), "/console/sessions"),
        (ContractPath.segment("/console/sessions/./x"), "/console/sessions"),
      ]
      for (next, landing) in cases {
        try await client.execute(
          uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
          body: ByteBuffer(string: "next=\(next)&token=" + reader)
        ) { response in
          #expect(response.status == .seeOther)
          #expect(response.headers[.location] == landing, "next=\(next)")
        }
      }
      // A refused sign-in keeps where it was going.
      try await client.execute(
        uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: "next=\(ContractPath.segment(asked))&token=" + ingest)
      ) { response in
        #expect(response.status == .unauthorized)
        #expect(String(buffer: response.body).contains(#"name="next" value="/console/sessions?screen=cart"#))
      }
    }
  }

  @Test func signingInKeepsTheTokenInAStrictCookieAndSigningOutForgetsIt() async throws {
    try await app().test(.router) { client in
      let cookie = try await signedIn(client, as: reader)
      #expect(cookie.hasPrefix("navstore_console=nvc_"))
      try await client.execute(
        uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: "token=" + reader)
      ) { response in
        let attributes = Set(
          (response.headers[.setCookie] ?? "").split(separator: ";").dropFirst().map {
            $0.trimmingCharacters(in: .whitespaces)
          })
        #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Strict", "Path=/console"]))
        #expect(!attributes.contains("Secure"), "plain HTTP here: a Secure cookie would never come back")
      }
      // An ingest token, or none of this collector's, does not sign in.
      for refused in [ingest, "nvs_0123456789abcdef_" + String(repeating: "0", count: 64), "x y"] {
        try await client.execute(
          uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
          body: ByteBuffer(string: "token=" + refused)
        ) { response in
          #expect(response.status == .unauthorized)
          #expect(response.headers[.setCookie] == nil)
        }
      }
      try await client.execute(uri: "/console/sessions", method: .get, headers: [.cookie: cookie]) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains(#"href="/console/sessions/s-1""#))
      }
      try await client.execute(uri: "/console/sign-out", method: .post, headers: [.cookie: cookie]) { response in
        #expect(response.status == .seeOther)
        #expect(response.headers[.setCookie]?.contains("Max-Age=0") == true)
      }
    }
  }

  /// The cookie holds a pass, never the token: an id the store keeps and a secret only the
  /// browser has. A pass changed anywhere, ended, signed out (a copy of its cookie included), or
  /// whose token was revoked signs nothing in; and nothing the store holds makes one.
  @Test func theCookieHoldsAPassTheStoreEndsAndNothingStoredMakes() async throws {
    try await app().test(.router) { client in
      let cookie = try await signedIn(client, as: reader)
      let value = String(cookie.dropFirst("navstore_console=".count))
      let secret = String(reader.split(separator: "_")[2])
      #expect(!cookie.contains(secret) && value.hasPrefix("nvc_"))
      let pass = try #require(ConsolePass(value))
      func page(_ value: String) async throws -> HTTPResponse.Status {
        try await client.execute(
          uri: "/console/sessions", method: .get, headers: [.cookie: "navstore_console=" + value]
        ) { $0.status }
      }
      #expect(try await page(value) == .ok)
      let connection = try SQLiteConnection(path: folder.path("collector.sqlite"), mode: .readWrite(create: false))
      let stored = try #require(
        try connection.text("SELECT hex(secret_hash) FROM collector_console_passes WHERE id = '\(pass.id)'"))
      #expect(!value.lowercased().contains(stored.lowercased()), "the store keeps the secret's hash only")
      // Another sign-in's pass with this one's secret, this one's with a flipped secret, the
      // token itself, and passes made from what the store holds: the stored hash as a secret,
      // and the token's own stored hash.
      let second = try #require(
        ConsolePass(String(try await signedIn(client, as: reader).dropFirst("navstore_console=".count))))
      let parts = value.split(separator: "_").map(String.init)
      let flipped = parts[2].last == "0" ? "1" : "0"
      let tokenHash = try #require(
        try connection.text(
          "SELECT lower(hex(secret_hash)) FROM collector_tokens WHERE id = '\(reader.split(separator: "_")[1])'"))
      let forged = [
        "nvc_\(second.id)_\(parts[2])", "nvc_\(parts[1])_" + parts[2].dropLast() + flipped, reader,
        "nvc_\(parts[1])_\(stored.lowercased())", "nvc_\(parts[1])_\(tokenHash)", "nvc_\(parts[1])",
      ]
      for forgery in forged { #expect(try await page(forgery) == .seeOther, "\(forgery)") }
      // Signing out ends the pass in the store: the cookie copied before signs in no more,
      // while the other sign-in's pass goes on.
      try await client.execute(uri: "/console/sign-out", method: .post, headers: [.cookie: cookie]) {
        #expect($0.status == .seeOther)
      }
      #expect(try await page(value) == .seeOther)
      #expect(try await page(second.text) == .ok)
      // A pass past its end signs nothing in; revoking the token ends every pass at once.
      try connection.execute("UPDATE collector_console_passes SET ends_at = 1 WHERE id = '\(second.id)'")
      #expect(try await page(second.text) == .seeOther)
      let third = String(try await signedIn(client, as: reader).dropFirst("navstore_console=".count))
      #expect(try await page(third) == .ok)
      _ = try store.revokeToken(String(reader.split(separator: "_")[1]))
      #expect(try await page(third) == .seeOther)
    }
  }

  @Test func aFormFromAnotherSiteIsRefused() async throws {
    try await app().test(.router) { client in
      for (name, value) in [("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site"), ("Origin", "null")] {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers[try #require(HTTPField.Name(name))] = value
        try await client.execute(
          uri: "/console/sign-in", method: .post, headers: headers, body: ByteBuffer(string: "token=" + reader)
        ) { response in
          #expect(response.status == .forbidden, "\(name): \(value)")
          #expect(response.headers[.setCookie] == nil)
        }
      }
    }
  }

  @Test func anotherAppsSessionIsNotFound() async throws {
    try await app().test(.router) { client in
      _ = try await signedIn(client, as: reader)
      let cookie = try await client.execute(
        uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: "token=" + otherReader)
      ) { String(($0.headers[.setCookie] ?? "").split(separator: ";").first ?? "") }
      for path in ["/console/sessions/s-1", "/console/sessions/s-1/report", "/console/sessions/s-1/history.jsonl"] {
        try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) {
          #expect($0.status == .notFound, "\(path)")
        }
      }
      try await client.execute(uri: "/console/sessions", method: .get, headers: [.cookie: cookie]) { response in
        #expect(!String(buffer: response.body).contains("s-1"))
      }
    }
  }

  @Test func whatALaunchDidIsOnTheSessionsPageAndTheListingFiltersOnIt() async throws {
    try await app().test(.router) { client in
      let cookie = try await signedIn(client, as: reader)
      let launched =
        #"{"session":"s-3","seq":1,"at":"2026-11-21T10:09:00.000Z","op":{"op":"start","state":{"routes":[{"screen":"home","style":"root","withNavigation":true}]},"restoredFrom":{"session":"s-1","seq":1},"launch":{"outcome":"restored","reason":"<i>why</i>","dropped":[{"path":[],"index":1,"screen":"cart","routes":2,"error":"gone"}]}}}"#
      try await client.execute(
        uri: "/v1/events", method: .post,
        headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
        body: ByteBuffer(string: launched + "\n")
      ) { #expect($0.status == .ok) }
      try await client.execute(uri: "/console/sessions/s-3", method: .get, headers: [.cookie: cookie]) { response in
        #expect(
          String(buffer: response.body).contains(
            "<dt>Launch</dt><dd>restored (&lt;i&gt;why&lt;/i&gt;), 2 routes dropped (the report lists each, with why)</dd>"
          ))
      }
      try await client.execute(uri: "/console/sessions/s-2", method: .get, headers: [.cookie: cookie]) { response in
        #expect(!String(buffer: response.body).contains("<dt>Launch</dt>"), "its start says nothing of its launch")
      }
      for (query, sessions) in [
        ("dropped_routes=true", ["s-3"]), ("launch=restored", ["s-3"]), ("launch=declined", []),
        ("dropped_routes=false&sort=id", [Self.hostileID, "s-1", "s-2"]),
      ] {
        try await client.execute(
          uri: "/v1/sessions?" + query, method: .get, headers: [.authorization: "Bearer \(reader)"]
        ) { response in
          let body = try JSONParser.parse(Array(String(buffer: response.body).utf8))
          guard case .object(let page) = body, case .array(let rows)? = page["sessions"] else {
            Issue.record("\(query): \(String(buffer: response.body))")
            return
          }
          let ids = rows.compactMap { row -> String? in
            guard case .object(let row) = row, case .string(let id)? = row["session"] else { return nil }
            return id
          }
          #expect(ids == sessions, "\(query)")
        }
      }
      try await client.execute(
        uri: "/v1/sessions?launch=crashed", method: .get, headers: [.authorization: "Bearer \(reader)"]
      ) { response in
        #expect(response.status == .badRequest)
        #expect(
          String(buffer: response.body).contains("launch: expected restored or restoredRoots or fresh or declined"))
      }
    }
  }

  @Test func markupFromTheStoreIsShownAsText() async throws {
    try await app().test(.router) { client in
      let cookie = try await signedIn(client, as: reader)
      let page = "/console/sessions/" + ContractPath.segment(Self.hostileID)
      for path in ["/console/sessions", page, page + "/report"] {
        try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) { response in
          #expect(response.status == .ok, "\(path)")
          let html = String(buffer: response.body)
          for raw in [#"<b id="x">"#, "<img src=x", "<script>alert(2)"] {
            #expect(!html.contains(raw), "\(path) holds \(raw) as markup")
          }
          if path == "/console/sessions" { #expect(html.contains("&lt;b id=&quot;x&quot;&gt;s&lt;/b&gt;")) }
        }
      }
    }
  }

  @Test func pagesRunNothingButTheirOwn() async throws {
    try await app().test(.router) { client in
      let cookie = try await signedIn(client, as: reader)
      try await client.execute(uri: "/console/sessions/s-1", method: .get, headers: [.cookie: cookie]) { response in
        let policy = response.headers[.contentSecurityPolicy] ?? ""
        #expect(
          policy.contains("default-src 'none'") && !policy.contains("unsafe-inline") && !policy.contains("script-src"))
        #expect(policy.contains("frame-ancestors 'none'"))
        let html = String(buffer: response.body)
        #expect(!html.contains("<script") && !html.contains("style="))
        #expect(html.contains(#"<iframe class="report" src="/console/sessions/s-1/report""#))
        #expect(response.headers[.cacheControl] == "no-store")
      }
      try await client.execute(uri: "/console/sessions/s-1/report", method: .get, headers: [.cookie: cookie]) {
        response in
        let policy = response.headers[.contentSecurityPolicy] ?? ""
        let html = String(buffer: response.body)
        // The report's one inline script and one style are the ones the policy names by hash.
        for (open, close, directive) in [("<script>", "</script>", "script-src"), ("<style>", "</style>", "style-src")]
        {
          let start = try #require(html.range(of: open))
          let end = try #require(html.range(of: close, range: start.upperBound..<html.endIndex))
          let digest = Data(SHA256.hash(data: Data(html[start.upperBound..<end.lowerBound].utf8))).base64EncodedString()
          #expect(policy.contains("\(directive) 'sha256-\(digest)'"), "\(directive)")
        }
        #expect(policy.contains("frame-ancestors 'self'") && !policy.contains("unsafe"))
      }
      // A restored session's report links the session it continues: in the console, to that
      // session's page in the whole window; in the download, to the file beside it.
      try await client.execute(uri: "/console/sessions/s-2/report", method: .get, headers: [.cookie: cookie]) {
        #expect(String(buffer: $0.body).contains(#"<a href="/console/sessions/s-1" target="_top">its page</a>"#))
      }
      try await client.execute(uri: "/console/sessions/s-2/report.html", method: .get, headers: [.cookie: cookie]) {
        #expect(String(buffer: $0.body).contains(#"<a href="s-1.html#seq=1">its report</a>"#))
        #expect($0.headers[.contentDisposition] == #"attachment; filename="s-2.html""#)
      }
      try await client.execute(uri: "/console/sessions/s-2", method: .get, headers: [.cookie: cookie]) {
        #expect(String(buffer: $0.body).contains(#"<a href="/console/sessions/s-1"><bdi>s-1</bdi></a>"#))
      }
      // The sessions that continue s-1, and those whose id starts with "s-": listed, nothing else.
      for (query, expected) in [("restored_from=s-1", ["s-2"]), ("id_prefix=s-", ["s-2", "s-1"])] {
        try await client.execute(uri: "/console/sessions?" + query, method: .get, headers: [.cookie: cookie]) {
          let html = String(buffer: $0.body)
          let listed = html.components(separatedBy: #"<tr><td class="id"><a href="/console/sessions/"#).dropFirst().map
          {
            String($0.prefix { $0 != "\"" })
          }
          #expect(listed == expected, "\(query)")
        }
      }
      try await client.execute(uri: "/console/sessions/s-1/history.jsonl", method: .get, headers: [.cookie: cookie]) {
        response in
        #expect(response.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
        #expect(String(buffer: response.body).split(separator: "\n").count == 1)
      }
      // s-2 as a regression test's fixture: with s-1, which it was restored from.
      try await client.execute(uri: "/console/sessions/s-2", method: .get, headers: [.cookie: cookie]) {
        #expect(String(buffer: $0.body).contains(#"<a href="/console/sessions/s-2/fixture.jsonl" download>"#))
      }
      try await client.execute(uri: "/console/sessions/s-2/fixture.jsonl", method: .get, headers: [.cookie: cookie]) {
        response in
        #expect(response.headers[.contentDisposition] == #"attachment; filename="s-2.jsonl""#)
        let lines = String(buffer: response.body).split(separator: "\n")
        #expect(lines.count == 2 && lines[0].contains(#""session":"s-1""#) && lines[1].contains(#""session":"s-2""#))
        #expect(!lines.contains { $0.contains(#""hash""#) })
      }
    }
  }

  @Test func twoCookiesOfTheNameAreNoSignIn() async throws {
    try await app().test(.router) { client in
      let cookie = try await signedIn(client, as: reader)
      // One planted beside the console's own (by a sibling site, or over plain HTTP).
      let planted = try await ConsoleTests.signIn(client, with: otherReader)
      try await client.execute(
        uri: "/console/sessions", method: .get, headers: [.cookie: cookie + "; " + planted]
      ) { #expect($0.status == .seeOther) }
      try await client.execute(uri: "/console/sessions", method: .get, headers: [.cookie: cookie]) {
        #expect($0.status == .ok)
      }
    }
  }

  @Test func aSignInFormIsSmallAndQuickOrNone() async throws {
    try await app().test(.router) { client in
      try await client.execute(
        uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: "token=" + String(repeating: "a", count: 5_000))
      ) { #expect($0.status == .contentTooLarge) }
    }
  }

  @Test func behindATrustedProxyThatEndedTLSTheCookieIsSecure() async throws {
    var trusting = CollectorConfiguration()
    trusting.trustedProxies = [try #require(IPNetwork("127.0.0.1")), try #require(IPNetwork("::1"))]
    for (configuration, secure) in [(trusting, true), (CollectorConfiguration(), false)] {
      try await app(configuration).test(.live) { client in
        try await client.execute(
          uri: "/console/sign-in", method: .post,
          headers: [.contentType: "application/x-www-form-urlencoded", HTTPField.Name("X-Forwarded-Proto")!: "https"],
          body: ByteBuffer(string: "token=" + reader)
        ) { response in
          #expect(response.status == .seeOther)
          let attributes = (response.headers[.setCookie] ?? "").split(separator: ";").map {
            $0.trimmingCharacters(in: .whitespaces)
          }
          #expect(attributes.contains("Secure") == secure, "a proxy trusted: \(secure)")
          #expect((response.headers[.strictTransportSecurity] != nil) == secure)
        }
      }
    }
  }
}
