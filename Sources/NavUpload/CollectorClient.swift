import Foundation
import NavContract
import NavCore
import NavPersistence

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of the collector's contract, as `navstore push` and `NavigationUploader` use it:
/// uploads in gzip'd batches and reads heads, over URLSession and the system's zlib (nothing of
/// the server). `attempt` makes one exchange, for a caller that decides itself what follows
/// (the uploader); the other calls retry as `RetryPolicy` says, waiting between attempts (for
/// `push`, which can wait).
package struct CollectorClient: Sendable {
  /// What a refused or failed exchange was.
  package struct Failure: Error, CustomStringConvertible {
    /// The status, when the collector answered.
    package var status: Int?
    /// What it said, or what went wrong.
    package var message: String
    /// The failure in one sentence, for a log or a terminal.
    package var description: String { status.map { "the collector answered \($0): \(message)" } ?? message }
  }

  /// The collector's base address (`http://127.0.0.1:8740`).
  package let base: URL
  private let token: String
  private let session: URLSession
  /// The most attempts of one request in the retrying calls.
  private let attempts: Int
  /// When to retry, in the retrying calls.
  private let policy: RetryPolicy

  /// A client of the collector at `base`, presenting `token`, over `session` (by default an
  /// ephemeral one that waits at most `timeout` for an answer). The retrying calls try each
  /// request up to `attempts` times, as `policy` says. Spaces and line breaks around the token
  /// are not part of it: a token read from a file (`> device.token`) ends in a line break.
  package init(
    base: URL, token: String, session: URLSession? = nil, attempts: Int = 8, timeout: Duration = .seconds(60),
    policy: RetryPolicy = RetryPolicy(
      firstBackoff: .milliseconds(500), maximumBackoff: .seconds(30), retriesOtherAnswers: false)
  ) {
    self.base = base
    self.token = token.trimmingCharacters(in: .whitespacesAndNewlines)
    self.attempts = max(1, attempts)
    self.policy = policy
    self.session = session ?? Self.ephemeralSession(timeout: timeout)
  }

  /// A session that keeps nothing of an exchange: no cache on disk or in memory, no cookies.
  package static func ephemeralSession(timeout: Duration) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout.inSeconds
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration)
  }

  /// One exchange's answer.
  package struct Exchange: Sendable {
    /// The status.
    package var status: Int
    /// The body.
    package var body: [UInt8]
    /// The wait `Retry-After` asked for, if it said one.
    package var retryAfter: Duration?

    /// How the attempt ended, for `RetryPolicy`.
    package var attempt: RetryPolicy.Attempt { .answered(status: status, retryAfter: retryAfter) }
  }

  /// One upload of `lines` (`body`, when made already), signed by `signer`, with no retry:
  /// throws `URLError` when no answer came (after telling `hooks`).
  package func attemptUpload(
    _ lines: [String], body: [UInt8]?, hooks: AttemptHooks, signer: DeviceSigner?
  ) async throws -> Exchange {
    let (body, headers) = try uploadRequest(lines, body: body, signer: signer)
    return try await attempt(path: "v1/events", method: "POST", body: Data(body), headers: headers, hooks: hooks)
  }

  /// The head the collector holds for `session`, `nil` when it holds none.
  package func head(of session: SessionID) async throws -> SessionHead? {
    let (status, body) = try await send(
      path: "v1/sessions/\(ContractPath.segment(session.rawValue))/head", method: "GET", body: nil)
    if status == 404 { return nil }
    guard status == 200, let head = try? ContractJSON.decode(SessionHead.self, from: body) else {
      throw Failure(status: status, message: String(decoding: body, as: UTF8.self))
    }
    return head
  }

  /// The session with the sessions it was restored from, as a regression test's fixture
  /// (`GET /v1/sessions/{id}/bundle`), read with a read token: `nil` when the collector holds no
  /// such session.
  package func bundle(of session: SessionID, keepingPersonal: Bool) async throws -> [UInt8]? {
    let query = keepingPersonal ? "?keep_personal=true" : ""
    let (status, body) = try await send(
      path: "v1/sessions/\(ContractPath.segment(session.rawValue))/bundle\(query)", method: "GET", body: nil)
    if status == 404 { return nil }
    guard status == 200 else { throw Failure(status: status, message: String(decoding: body, as: UTF8.self)) }
    return body
  }

  /// The heads the collector holds for `sessions` (at most `HeadsRequest.maximumSessions`), in
  /// one request (`POST /v1/heads`): seq 0 for a session it does not hold. `nil` when the
  /// collector has no such endpoint (a 404: a collector older than it), for the caller to ask
  /// session by session.
  package func heads(of sessions: [SessionID]) async throws -> [SessionID: SessionHead]? {
    let body = try ContractJSON.encode(HeadsRequest(sessions: sessions))
    let (status, answer) = try await send(
      path: "v1/heads", method: "POST", body: Data(body), headers: ["Content-Type": "application/json"])
    if status == 404, (try? ContractJSON.decode(ErrorBody.self, from: answer))?.error == "not-found" { return nil }
    guard status == 200, let heads = try? ContractJSON.decode(HeadsAnswer.self, from: answer) else {
      throw Failure(status: status, message: String(decoding: answer, as: UTF8.self))
    }
    return heads.heads
  }

  /// Uploads `lines` (wire-format events), each request signed by `signer` when given (the
  /// device whose sessions these are, so the collector takes the lines of the sessions that
  /// device started). A batch over the collector's limits is split in halves, and a line over
  /// them alone is rejected as the collector would (`too-large`), as `policy` decides; the
  /// answers' counts and rejected lines (numbered in `lines`, from 1) come back as one.
  package func upload(_ lines: [String], signedBy signer: DeviceSigner? = nil) async throws -> UploadAnswer {
    guard !lines.isEmpty else { return UploadAnswer() }
    let (gzipped, headers) = try uploadRequest(lines, body: nil, signer: signer)
    let (status, answerBody) = try await send(path: "v1/events", method: "POST", body: Data(gzipped), headers: headers)
    switch policy.decide(after: .answered(status: status, retryAfter: nil), failures: 1, lines: lines.count, jitter: 1)
    {
    case .hold:
      // One line the collector will not take even alone: rejected, as the collector would, so
      // the caller goes on with the other lines (the later ones of its session come back `gap`).
      let rejection = LineRejection(
        reason: .tooLarge, session: nil, seq: nil,
        message: "the line alone is over the collector's limits (GET /v1/limits says them); it cannot be sent")
      return UploadAnswer(rejected: [RejectedLine(line: 1, rejection: rejection)])
    case .split:
      let half = lines.count / 2
      var first = try await upload(Array(lines[..<half]), signedBy: signer)
      first.add(try await upload(Array(lines[half...]), signedBy: signer), shiftedBy: half)
      return first
    case .take, .stop, .fail, .retry:
      guard status == 200, let answer = UploadAnswer(answerBody) else {
        throw Failure(status: status, message: String(decoding: answerBody, as: UTF8.self))
      }
      return answer
    }
  }

  /// The request body of `lines`: one JSON Lines document, gzip'd.
  package static func body(of lines: [String]) throws -> [UInt8] {
    try Gzip.compress(Array((lines.joined(separator: "\n") + "\n").utf8))
  }

  /// What an uploader is told of each attempt to send a body, to hold a daily budget.
  package struct AttemptHooks: Sendable {
    /// Told the body's size before each attempt; throwing refuses the attempt.
    var before: @Sendable (Int) async throws -> Void
    /// Told the body's size after each attempt that may have sent it: every one but those
    /// that never reached a host (no network, no such host, refused).
    var after: @Sendable (Int) async throws -> Void

    /// Hooks that do nothing.
    static let none = AttemptHooks(before: { _ in }, after: { _ in })

    package init(
      before: @escaping @Sendable (Int) async throws -> Void, after: @escaping @Sendable (Int) async throws -> Void
    ) {
      self.before = before
      self.after = after
    }
  }

  /// The gzip'd body of `lines` (or `body`, made already) and the upload's headers.
  private func uploadRequest(_ lines: [String], body: [UInt8]?, signer: DeviceSigner?) throws -> (
    [UInt8], [String: String]
  ) {
    let gzipped = try body ?? Self.body(of: lines)
    var headers = ["Content-Type": "application/x-ndjson", "Content-Encoding": "gzip"]
    if let signer { headers.merge(try signer.headers(for: gzipped)) { _, signed in signed } }
    return (gzipped, headers)
  }

  /// One exchange, retried while `policy` says to (a status that asks to wait, a failure, no
  /// answer), waiting what it says between attempts; the last answer is returned, whatever it
  /// is, and no answer at the last attempt is thrown.
  private func send(path: String, method: String, body: Data?, headers: [String: String] = [:]) async throws -> (
    Int, [UInt8]
  ) {
    for number in 1...attempts {
      let decision: RetryPolicy.Decision
      do {
        let exchange = try await attempt(path: path, method: method, body: body, headers: headers)
        decision = policy.decide(
          after: exchange.attempt, failures: number, lines: 1, jitter: Double.random(in: 0.5...1))
        guard case .retry(let wait) = decision, number < attempts else {
          return (exchange.status, exchange.body)
        }
        try await Task.sleep(for: wait)
      } catch let error as URLError {
        guard number < attempts else { throw error }
        try await Task.sleep(for: policy.backoff(failures: number, jitter: Double.random(in: 0.5...1)))
      }
    }
    throw Failure(status: nil, message: "no answer after \(attempts) attempts")
  }

  /// One exchange, no retry: the answer, or the `URLError` of a connection that gave none.
  /// `hooks` are told of the attempt, and after it, unless it never reached a host.
  package func attempt(
    path: String, method: String, body: Data?, headers: [String: String] = [:], hooks: AttemptHooks = .none
  ) async throws -> Exchange {
    var request = URLRequest(url: Self.url(base, path))
    request.httpMethod = method
    request.httpBody = body
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let size = body?.count ?? 0
    try await hooks.before(size)
    do {
      let (data, response) = try await session.cancellableData(for: request)
      try await hooks.after(size)
      let http = response as? HTTPURLResponse
      return Exchange(
        status: http?.statusCode ?? 0, body: Array(data),
        retryAfter: RetryPolicy.retryAfter(http?.value(forHTTPHeaderField: "Retry-After")))
    } catch let error as URLError {
      // The body may have gone unless no host was reached.
      if !Self.neverReachedAHost.contains(error.code) { try await hooks.after(size) }
      throw error
    }
  }

  /// `path` (already percent-encoded) under `base`, as it is: `appendingPathComponent` would
  /// encode its `%` again.
  static func url(_ base: URL, _ path: String) -> URL {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    return URL(string: text + "/" + path) ?? base
  }

  /// Failures that leave before any byte of the request went out.
  private static let neverReachedAHost: Set<URLError.Code> = [
    .notConnectedToInternet, .cannotFindHost, .dnsLookupFailed, .cannotConnectToHost,
  ]
}
