import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NavCore
import NavFleet
import NavPersistence

/// The outermost middleware: every request's answer, whatever happened below it.
///
/// - Every failure leaves in the contract's shape (a status and `{"error", "message"}`), the
///   ones the collector did not foresee included: a store error is a 503 or a 404 as it
///   deserves, anything else a 500, never an empty body.
/// - Every answer carries `X-Request-Id`, the id its log line has, so a client's report finds
///   the line.
/// - One log line per request, written when its answer has been written (a streamed answer's
///   when its stream ends, `cut` when it did not end whole): method, the route matched (never
///   the path, which holds a session id), status, duration, the request id, the client's
///   address (through trusted proxies), the app, and for a refusal or failure its cause. Never
///   a header, query or body: no token, payload or session id reaches a log. A 5xx is logged
///   at `error`, the rest at `info`.
/// - The request's metrics: endpoint, status and duration, to the end of its answer.
struct AnsweringMiddleware: RouterMiddleware {
  typealias Context = CollectorContext
  let clientAddress: ClientAddress
  let metrics: CollectorMetrics

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    let client = clientAddress.client(
      peer: context.peerAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor])
    context.notes.update { $0.client = client }
    var response: Response
    let failure: CollectorError?
    do {
      response = try await next(request, context)
      failure = nil
    } catch {
      let refusal = CollectorError.answering(error)
      failure = refusal
      response = try refusal.response(from: request, context: context)
    }
    response.headers[.requestID] = context.id
    // Logged and timed when the answer has been written: a streamed one ends after its stream.
    let route = context.endpointPath ?? "unmatched"
    let status = response.status.code
    let ended = AnswerEnd { [metrics] whole in
      let duration = ContinuousClock.now - started
      metrics.request(endpoint: route, status: Int(status), duration: duration)
      log(request, context: context, route: route, status: status, duration: duration, failure: failure, cut: !whole)
    }
    return try await ended.held { response }
  }

  private func log(
    _ request: Request, context: CollectorContext, route: String, status: Int, duration: Duration,
    failure: CollectorError?, cut: Bool
  ) {
    let notes = context.notes.current
    var metadata: Logger.Metadata = [
      "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(status)",
      "duration_ms": "\((duration.inSeconds * 10_000).rounded() / 10)", "request_id": "\(context.id)",
    ]
    if let client = notes.client { metadata["client"] = "\(client)" }
    if let app = notes.app { metadata["app"] = "\(app)" }
    // A streamed answer the client stopped reading, or that missed its write deadline.
    if cut { metadata["cut"] = "true" }
    if let failure {
      metadata["error"] = "\(failure.code)"
      if let cause = failure.cause { metadata["cause"] = "\(cause)" }
    }
    // Hummingbird's own copy of the id is left out: `request_id` is the one every answer names.
    var logger = context.logger
    logger[metadataKey: "hb.request.id"] = nil
    logger.log(level: status >= 500 && status != 499 ? .error : .info, "answered", metadata: metadata)
  }
}

extension CollectorError {
  /// What the client is answered for `error`, whatever it is: the contract's error body always.
  static func answering(_ error: any Error) -> CollectorError {
    switch error {
    case let refusal as CollectorError:
      return refusal
    case let error as HTTPError:
      // Hummingbird's own: no route for the path or the method is the contract's 404.
      switch error.status {
      case .notFound, .methodNotAllowed: return .notFound
      case .contentTooLarge: return .tooLarge(error.body ?? "The request is too large")
      case let status where status.code < 500:
        return CollectorError(
          status: status, code: "bad-request", message: error.body ?? "The request cannot be served as it is.")
      default:
        return .internal(cause: "Hummingbird answered \(error.status.code)")
      }
    case let error as StoreError:
      return storeFailure(error)
    case let error as HistoryError:
      return storeFailure(StoreError(error))
    case let error as FleetError:
      return fleetFailure(error)
    case is CancellationError:
      return .unavailable("The collector is stopping", cause: "the request was cancelled while it was served")
    case let error as IOError:
      return .internal(cause: "I/O: \(error)")
    default:
      return .internal(cause: "unexpected \(String(reflecting: type(of: error)))")
    }
  }

  /// The collector's store's failure as the client is answered: an app it does not have is a
  /// 404, as a session is; the collector's tables written by a newer build, a 503.
  static func fleetFailure(_ error: FleetError) -> CollectorError {
    switch error {
    case .store(let error): storeFailure(error)
    case .history(let error): storeFailure(StoreError(error))
    case .unknownApp, .unknownToken: .notFound
    case .newerCollectorTables, .newerDatabaseSchema:
      .unavailable("The store cannot serve this now", cause: error.description)
    case .unusableStore(_, let reason): .unavailable("This app's store cannot serve now", retryAfter: 30, cause: reason)
    case .database: .unavailable("The store cannot serve this now", cause: error.description)
    case .invalidDatabaseAddress, .rejectedLine: .internal(cause: "store: \(error)")
    case .invalidTokenLabel: .internal(cause: "store: invalidTokenLabel")
    }
  }

  /// A store's failure as the client is answered: a session it does not have is a 404, a seq
  /// past the end a 400, a store that cannot serve now (a full disk, a locked or missing file) a
  /// 503 with the failure in the log, anything else a 500.
  static func storeFailure(_ error: StoreError) -> CollectorError {
    switch error {
    case .unknownSession:
      return .notFound
    case .seqBeyondHistory(_, let seq, let last):
      return .badQuery("at: the session has events up to seq \(last), not \(seq)")
    case .diskFull, .busy, .diskFailed, .sqlite, .storeMissing, .folderMissing, .notADatabase, .damaged, .notAStore,
      .walMissing, .newerSchema, .olderSchema, .readOnly, .reentrantWrite:
      return .unavailable("The store cannot serve this now", cause: error.description)
    default:
      // The other cases name a session, which a log never holds: the case alone says enough.
      return .internal(cause: "store: \(Mirror(reflecting: error).children.first?.label ?? "failure")")
    }
  }
}
