import Hummingbird
import NavCore

/// One structured log line per request, once it is answered: method, the route it matched
/// (`/v1/sessions/{id}/head`, never the id), status and duration, with Hummingbird's request id.
/// No header, query or body is ever logged, so no token, payload, cursor or session id (which an
/// app may make from a user id) reaches a log.
struct RequestLogMiddleware: RouterMiddleware {
  typealias Context = CollectorContext

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    try await AnsweredStatus.observing(
      { try await next(request, context) },
      note: { status, duration in
        let milliseconds = duration.inSeconds * 1_000
        context.logger.info(
          "answered",
          metadata: [
            "method": "\(request.method.rawValue)", "route": "\(context.endpointPath ?? "unmatched")",
            "status": "\(status)", "duration_ms": "\((milliseconds * 10).rounded() / 10)",
          ])
      })
  }
}
