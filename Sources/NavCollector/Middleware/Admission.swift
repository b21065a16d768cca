import HTTPTypes
import Hummingbird
import NavCore

/// What kind of work a request is, for the limits on requests under way (the console's pages
/// are reads): the probes and the metrics are never limited, so no number of slow clients can
/// make an orchestrator think a serving collector is down or leave its operators without
/// figures; uploads and reads each have a pool of their own, so neither starves the other. A
/// device's other request, `POST /v1/heads`, is in the uploads' pool: an ingest token's holder
/// cannot fill the pool readers use.
enum RequestKind: String, Sendable {
  case probe, upload, read
  /// Signing in to the console: no token yet, so neither a client's share nor its rate applies;
  /// a small pool of its own keeps such requests from filling the reads', and one address has
  /// one place in it at a time.
  case signIn = "sign-in"

  /// The most sign-ins read at once, and from one address.
  static let signInsAtOnce = 16
  static let signInsPerAddress = 1

  init(_ request: Request) {
    // By the path's segments, as the router matches them (`//v1//events` is `/v1/events`).
    let segments = request.uri.path.split(separator: "/")
    switch segments.first {
    case "v1":
      let devices = request.method == .post && (segments == ["v1", "events"] || segments == ["v1", "heads"])
      self = devices ? .upload : .read
    case "console":
      self = request.method == .post && segments == ["console", "sign-in"] ? .signIn : .read
    default:
      self = .probe
    }
  }
}

/// Counts of requests under way by key, each held to a maximum: an entry exists only while a
/// request of its key is under way, so memory is the number of open requests.
final class OpenCounts: Sendable {
  private let counts = Protected<[String: Int]>([:])

  /// A place for one more request of `key`, unless `maximum` are under way (`nil`), given back
  /// when the request's answer ends (see `AnswerEnd`); `left` is called after it.
  func slot(for key: String, maximum: Int, left: @escaping @Sendable () -> Void = {}) -> AnswerEnd? {
    let entered = counts.withLock { counts in
      let open = counts[key, default: 0]
      guard open < maximum else { return false }
      counts[key] = open + 1
      return true
    }
    guard entered else { return nil }
    return AnswerEnd { [self] _ in
      counts.withLock { counts in
        let open = counts[key, default: 1] - 1
        counts[key] = open > 0 ? open : nil
      }
      left()
    }
  }
}

/// The pools of requests under way, before any other work (the token is not read yet): past a
/// pool's total, 503 with `Retry-After`. The probes and the metrics pass uncounted.
struct AdmissionMiddleware: RouterMiddleware {
  typealias Context = CollectorContext
  let uploads: OpenRequestLimit
  let reads: OpenRequestLimit
  let metrics: CollectorMetrics
  let open = OpenCounts()

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    // A body in a transfer coding the server does not read is no request (RFC 9112, 6.1).
    if let coding = request.headers[.transferEncoding],
      coding.trimmingCharacters(in: .whitespaces).lowercased() != "chunked"
    {
      throw CollectorError.unknownTransferCoding
    }
    let kind = RequestKind(request)
    guard kind != .probe else { return try await next(request, context) }
    let limit =
      switch kind {
      case .upload: uploads.total
      case .read: reads.total
      case .signIn, .probe: RequestKind.signInsAtOnce
      }
    // A sign-in has no token to share by: its address has one place at a time.
    var addressSlot: AnswerEnd?
    if kind == .signIn {
      let address = ClientAddress.shareKey(of: context.notes.current.client) ?? "unknown"
      guard let slot = open.slot(for: "sign-in from " + address, maximum: RequestKind.signInsPerAddress) else {
        metrics.refused("client-sign-ins")
        throw CollectorError.tooManyRequests(
          "This address already has a sign-in under way; send the next when it has ended", retryAfter: 1)
      }
      addressSlot = slot
    }
    guard
      let slot = open.slot(for: kind.rawValue, maximum: limit, left: { [metrics] in metrics.openRequests(kind, -1) })
    else {
      addressSlot?.end(whole: false)
      metrics.refused("open-\(kind.rawValue)s")
      throw CollectorError.unavailable("The collector is serving as many \(kind.rawValue)s as it may (\(limit))")
    }
    metrics.openRequests(kind, 1)
    guard let addressSlot else { return try await slot.held { try await next(request, context) } }
    return try await addressSlot.held { try await slot.held { try await next(request, context) } }
  }
}

/// Each app's and each client's share of a pool, once the token is known. An app with
/// `perApp` requests of a kind under way is refused another (503, `Retry-After`) until one
/// ends, so no app holds the pool another app's devices or readers need. A client (a token
/// from one address) with `perClient` under way is refused another (429, `Retry-After`), so
/// one client cannot hold its app's share; a device's claimed key buys no share of its own, since
/// anyone can name any key before its signature is checked.
struct ClientShareMiddleware: RouterMiddleware {
  typealias Context = CollectorContext
  let uploads: OpenRequestLimit
  let reads: OpenRequestLimit
  let metrics: CollectorMetrics
  let open = OpenCounts()

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    let kind = RequestKind(request)
    guard kind != .probe, let client = RequestClient(request, context: context) else {
      return try await next(request, context)
    }
    let limit = kind == .upload ? uploads : reads
    guard let appSlot = open.slot(for: kind.rawValue + " app " + client.app, maximum: limit.perApp) else {
      metrics.refused("app-\(kind.rawValue)s")
      throw CollectorError.unavailable(
        "This app already has \(limit.perApp) \(kind.rawValue)s under way, its share of the collector's")
    }
    guard let slot = open.slot(for: kind.rawValue + " " + client.key, maximum: limit.perClient) else {
      appSlot.end(whole: false)
      metrics.refused("client-\(kind.rawValue)s")
      throw CollectorError.tooManyRequests(
        "This client (this token, from this address) already has \(limit.perClient) \(kind.rawValue)s under way; "
          + "send the next when one has ended", retryAfter: 1)
    }
    return try await appSlot.held { try await slot.held { try await next(request, context) } }
  }
}

/// Who a request counts against: its token, from the address it comes from (the peer, or what
/// a trusted proxy names; an IPv6 address by its /64, `ClientAddress.shareKey`). Not the device its `NavStore-Device-Key` names: that is a claim
/// until the body's signature is checked, which is after the body has arrived, and a claim
/// anyone can make would let them spend, or lock out, that device's share and rate.
struct RequestClient {
  /// `token <id> from <address>`.
  let key: String
  /// The token's id.
  let token: String
  /// The token's app.
  let app: String

  init?(_ request: Request, context: CollectorContext) {
    guard let token = context.token else { return nil }
    self.token = token.id
    app = token.app.rawValue
    key = "token " + token.id + " from " + (ClientAddress.shareKey(of: context.notes.current.client) ?? "unknown")
  }
}
