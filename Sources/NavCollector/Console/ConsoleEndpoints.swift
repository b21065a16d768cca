import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NavContract
import NavCore
import NavFleet
import NavPersistence
import NavReport

/// The support console, under `/console/`: a fleet's sessions in a browser, served by the
/// collector itself with everything it needs in the binary (no script of its own, one style
/// sheet). Signing in takes a `read` token (`ConsoleCookie`); every page then shows only that
/// token's app, and a session of another app is not found, as in the API.
struct ConsoleEndpoints {
  let backend: any FleetBackend
  let tokens: TokenCheck
  /// Whether the collector serves HTTPS (the cookie is then `Secure`).
  let secure: Bool
  /// The proxies trusted to say what the client used: a sign-in through one that says
  /// `X-Forwarded-Proto: https` gets a `Secure` cookie too (TLS ended at the proxy).
  let clientAddress: ClientAddress
  /// How long a client may take to send a form, or to read each chunk of a download.
  let timeout: Duration
  /// The turns a download takes to read each chunk.
  let turns: StreamTurns
  /// The lines rejected by app, for the overview.
  let rejections: RejectionTally
  /// The tokens that were none, by client address: a sign-in counts as the API's requests do.
  let guesses: GuessLimit
  /// The overviews of the last minute.
  let overviews = FleetOverviewCache()

  /// The largest sign-in form, and how long it may take to arrive.
  static let formBytes = 4096
  static let formTimeout = Duration.seconds(5)

  /// The console's own pages' policy: its style sheet, its forms, its frames; nothing else.
  static let pagePolicy =
    "default-src 'none'; style-src 'self'; img-src 'self' data:; frame-src 'self'; form-action 'self'; "
    + "base-uri 'none'; frame-ancestors 'none'"

  /// Whether the path of `segments` is one of the console's that need no sign-in: its front
  /// door, signing in and out, and its style sheet (none of which shows anything of an app).
  static func isOpen(_ segments: [Substring]) -> Bool {
    [["console"], ["console", "sign-in"], ["console", "sign-out"], ["console", "assets", "console.css"]].contains(
      segments.map(String.init))
  }

  func register(on router: Router<CollectorContext>) {
    // The collector's address is its front door: an operator who opens it finds the console
    // (its sign-in, without a pass).
    router.get("/") { _, _ in Self.redirect(to: "/console/sessions") }
    router.get("console") { _, _ in Self.redirect(to: "/console/sessions") }
    let console = router.group("console")
    console.get("assets/console.css") { _, _ in
      Response(
        status: .ok,
        headers: [
          .contentType: "text/css; charset=utf-8", .cacheControl: "max-age=3600", .xContentTypeOptions: "nosniff",
        ],
        body: ResponseBody(byteBuffer: ByteBuffer(string: ConsoleStyle.css)))
    }
    console.get("sign-in") { request, _ in
      Self.html(ConsolePages.signIn(problem: nil, next: request.uri.queryParameters["next"].map(String.init)))
    }
    console.post("sign-in") { request, context in
      try await signIn(request, address: context.notes.current.client, secure: isSecure(request, context))
    }
    console.post("sign-out") { request, context in
      try Self.checkSameOrigin(request)
      // The pass ends in the store: a copy of the cookie signs in no more.
      if let text = ConsoleCookie.pass(in: request.headers), let pass = ConsolePass(text) {
        do {
          try await backend.tokens.endPass(pass)
        } catch {
          throw CollectorError.unavailable("The token store cannot be written now", cause: "\(error)")
        }
      }
      var response = Self.redirect(to: "/console/sign-in")
      response.headers[.setCookie] = ConsoleCookie.signOut(secure: isSecure(request, context))
      return response
    }
    console.get("sessions") { request, context in
      let token = try context.requireToken(.read)
      let (page, understood) = try await ConsoleSessionList.page(
        ConsoleSessionList.Filters(request), app: token.app, backend: backend)
      return Self.html(page, status: understood ? .ok : .badRequest)
    }
    console.get("fleet") { request, context in
      let token = try context.requireToken(.read)
      guard let days = ConsoleFleetPage.window(request.uri.queryParameters["days"].map(String.init)) else {
        return Self.html(
          ConsolePages.problem(
            title: "The fleet at a glance", app: token.app.rawValue,
            "The window is one of \(ConsoleFleetPage.windows.sorted().map(String.init).joined(separator: ", ")) days."),
          status: .badRequest)
      }
      let backend = backend
      let overview = try await overviews.overview(app: token.app, days: days) {
        try await FleetOverview.make(app: token.app, dayCount: days, now: .now, backend: backend)
      }
      return Self.html(
        ConsoleFleetPage.page(
          overview, days: days, app: token.app.rawValue, rejections: rejections.counts(of: token.app),
          rejectionsSince: rejections.since))
    }
    console.get("open") { request, context in
      let token = try context.requireToken(.read)
      let text = request.uri.queryParameters["id"].map(String.init) ?? ""
      guard let id = try? SessionID(text) else {
        return Self.html(
          ConsolePages.problem(title: "No such session", app: token.app.rawValue, "That is not a session id."),
          status: .notFound)
      }
      return Self.redirect(to: ConsolePages.sessionPath(id))
    }
    console.get("sessions/:id") { _, context in
      let token = try context.requireToken(.read)
      let id = try context.sessionInPath()
      let summary = try await backend.summary(of: id, app: token.app)
      return Self.html(ConsoleSessionPage.page(summary, app: token.app.rawValue))
    }
    console.get("sessions/:id/report") { _, context in try await report(context, download: false) }
    console.get("sessions/:id/report.html") { _, context in try await report(context, download: true) }
    console.get("sessions/:id/history.jsonl") { _, context in try await history(context) }
    console.get("sessions/:id/fixture.jsonl") { _, context in try await fixture(context) }
  }

  /// Whether the browser reached the console over HTTPS: the collector's own, or a trusted
  /// proxy's that says so.
  private func isSecure(_ request: Request, _ context: CollectorContext) -> Bool {
    secure
      || (clientAddress.isTrusted(peer: context.peerAddress?.ipAddress)
        && request.headers[.xForwardedProto]?.lowercased() == "https")
  }

  /// Signs the browser in with the form's token, when it is a `read` token of this collector.
  private func signIn(_ request: Request, address: String?, secure: Bool) async throws -> Response {
    try Self.checkSameOrigin(request)
    // A token fits in a few hundred bytes, and a browser sends its form at once: a larger or
    // slower body is no sign-in (nobody holds a place in the pool for long).
    if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.formBytes {
      throw CollectorError(
        status: .contentTooLarge, code: "too-large", message: "A sign-in form is at most \(Self.formBytes) bytes.")
    }
    let form = try await BodyPace.collect(
      request, upTo: Self.formBytes, within: min(timeout, Self.formTimeout), what: "A sign-in form")
    let fields = String(buffer: form)
    let presented = Self.formValue("token", in: fields) ?? ""
    let next = ConsolePages.returnPath(Self.formValue("next", in: fields))
    try guesses.check(address)
    let found = try await tokens.authenticate(presented)
    if found == nil { guesses.noteNone(address) }
    guard let token = found, token.role == .read else {
      return Self.html(
        ConsolePages.signIn(
          problem: "That is not a read token of this collector, or it was revoked or has expired.", next: next),
        status: .unauthorized)
    }
    let pass: ConsolePass
    do {
      pass = try await backend.tokens.openPass(for: token, at: .now)
    } catch {
      throw CollectorError.unavailable("The token store cannot be written now", cause: error.description)
    }
    var response = Self.redirect(to: next ?? "/console/sessions")
    response.headers[.setCookie] = ConsoleCookie.signIn(pass, secure: secure)
    // Over HTTPS, the browser is told to come back over HTTPS only, so the cookie is never
    // asked for over plain HTTP.
    if secure { response.headers[.strictTransportSecurity] = "max-age=31536000" }
    return response
  }

  /// A session's report: in the console's frame, or as the file `navstore report` writes.
  private func report(_ context: CollectorContext, download: Bool) async throws -> Response {
    let token = try context.requireToken(.read)
    let id = try context.sessionInPath()
    let report = try await backend.report(of: id, app: token.app, focus: nil, omitsPayloads: false)
    // In the console, the session it continues is that session's console page; in a download,
    // the file `navstore report` would write beside it.
    let page = download ? ReportPage.html(report) : ReportPage.html(report, linking: .console)
    var headers = Self.securityHeaders(policy: ReportPage.contentSecurityPolicy)
    headers[.contentType] = "text/html; charset=utf-8"
    if download { headers[.contentDisposition] = Self.attachment(ReportFileName.of(id)) }
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
  }

  /// A session's history as JSON Lines, as `navstore history --json` writes it, streamed.
  private func history(_ context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let id = try context.sessionInPath()
    let count = try await backend.summary(of: id, app: token.app).eventCount
    let body = ReadEndpoints.linesBody(
      of: [(id, 1, count)], app: token.app, backend: backend, writeTimeout: timeout, turns: turns)
    var headers = Self.securityHeaders(policy: Self.pagePolicy)
    headers[.contentType] = "application/x-ndjson"
    headers[.contentDisposition] = Self.attachment(ReadEndpoints.jsonLinesFileName(id))
    return Response(status: .ok, headers: headers, body: body)
  }

  /// The session as a regression test's fixture, with the sessions it was restored from (what
  /// `GET /v1/sessions/{id}/bundle` sends), streamed.
  private func fixture(_ context: CollectorContext) async throws -> Response {
    let token = try context.requireToken(.read)
    let id = try context.sessionInPath()
    let body = try await ReadEndpoints.bundleBody(
      of: id, app: token.app, keepingPersonal: false, backend: backend, writeTimeout: timeout, turns: turns)
    var headers = Self.securityHeaders(policy: Self.pagePolicy)
    headers[.contentType] = "application/x-ndjson"
    headers[.contentDisposition] = Self.attachment(ReadEndpoints.jsonLinesFileName(id))
    return Response(status: .ok, headers: headers, body: body)
  }

  // MARK: Answers

  /// A console page.
  static func html(_ page: Markup, status: HTTPResponse.Status = .ok) -> Response {
    var headers = securityHeaders(policy: pagePolicy)
    headers[.contentType] = "text/html; charset=utf-8"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page.html)))
  }

  /// To `path`, as a browser follows it with a GET.
  static func redirect(to path: String) -> Response {
    var headers = securityHeaders(policy: pagePolicy)
    headers[.location] = path
    return Response(status: .seeOther, headers: headers)
  }

  /// What every console answer says to the browser: its policy, no sniffing, no referrer to
  /// another site (a console URL names a session), and no copy kept (a page shows an app's
  /// sessions).
  static func securityHeaders(policy: String) -> HTTPFields {
    [
      .contentSecurityPolicy: policy, .xContentTypeOptions: "nosniff", .referrerPolicy: "same-origin",
      .cacheControl: "no-store",
    ]
  }

  /// `Content-Disposition` for a download named `file` (its name as the report's, ASCII).
  static func attachment(_ file: String) -> String { "attachment; filename=\"\(file)\"" }

  /// A form post from another site is refused. A browser says where a request comes from:
  /// `Sec-Fetch-Site` (every current browser), else `Origin`; a form of the console comes from
  /// the console. A client that says neither (a script, not a browser) is not a cross-site form,
  /// and the cookie's `SameSite=Strict` covers the browsers too old to say.
  static func checkSameOrigin(_ request: Request) throws {
    if let site = request.headers[.secFetchSite] {
      guard site == "same-origin" || site == "none" else { throw CollectorError.forbiddenForm }
      return
    }
    guard let origin = request.headers[.origin] else { return }
    guard let url = URL(string: origin), let originHost = url.host else { throw CollectorError.forbiddenForm }
    let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
    guard originAuthority.lowercased() == (request.head.authority ?? "").lowercased() else {
      throw CollectorError.forbiddenForm
    }
  }

  /// The value of `name` in an `application/x-www-form-urlencoded` body.
  static func formValue(_ name: String, in body: String) -> String? {
    for pair in body.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0] == name else { continue }
      return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
    return nil
  }
}
