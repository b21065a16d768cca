import HTTPTypes
import Hummingbird
import NavCore

/// What kind of work a request is, for the limits on requests under way (the console's pages
/// are reads): the probes and the metrics are never limited, so no number of slow clients can make an orchestrator think a
/// serving collector is down or leave its operators without figures; uploads and reads each
/// have a pool of their own, so neither starves the other.
enum RequestKind: String, Sendable {
  case probe, upload, read
  /// Signing in to the console: no token yet, so neither a client's share nor its rate applies;
  /// a small pool of its own keeps such requests from filling the reads'.
  case signIn = "sign-in"

  /// The most sign-ins read at once.
  static let signInsAtOnce = 4

  init(_ request: Request) {
    // By the path's segments, as the router matches them (`//v1//events` is `/v1/events`).
    let segments = request.uri.path.split(separator: "/")
    switch segments.first {
    case "v1":
      self = request.method == .post && segments == ["v1", "events"] ? .upload : .read
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
    let kind = RequestKind(request)
    guard kind != .probe else { return try await next(request, context) }
    let limit =
      switch kind {
      case .upload: uploads.total
      case .read: reads.total
      case .signIn, .probe: RequestKind.signInsAtOnce
      }
    guard
      let slot = open.slot(for: kind.rawValue, maximum: limit, left: { [metrics] in metrics.openRequests(kind, -1) })
    else {
      metrics.refused("open-\(kind.rawValue)s")
      throw CollectorError.unavailable("The collector is serving as many \(kind.rawValue)s as it may (\(limit))")
    }
    metrics.openRequests(kind, 1)
    return try await slot.held { try await next(request, context) }
  }
}

/// Each client's share of its pool, once the token is known: a client (a device, when its
/// requests name one; otherwise a token) with `perClient` requests of a kind under way is
/// refused another (429, `Retry-After`) until one ends, so one client cannot hold the pool.
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
    let share = kind == .upload ? uploads.perClient : reads.perClient
    guard let slot = open.slot(for: kind.rawValue + " " + client.key, maximum: share) else {
      metrics.refused("client-\(kind.rawValue)s")
      throw CollectorError.tooManyRequests(
        "This \(client.noun) already has \(share) \(kind.rawValue)s under way; send the next when one has ended",
        retryAfter: 1)
    }
    return try await slot.held { try await next(request, context) }
  }
}

/// Who a request counts against: the device that names itself in `NavStore-Device-Key` (a
/// key's public half, checked against the body's signature when the request is an upload), or
/// else the token.
struct RequestClient {
  /// `device <key>` or `token <id>`.
  let key: String
  /// The token's id.
  let token: String
  /// `device` or `token`, for a message.
  let noun: String

  init?(_ request: Request, context: CollectorContext) {
    guard let token = context.token else { return nil }
    self.token = token.id
    if let device = request.headers[.deviceKey], DeviceKey(text: device) != nil {
      key = "device " + device
      noun = "device"
    } else {
      key = "token " + token.id
      noun = "token"
    }
  }
}
