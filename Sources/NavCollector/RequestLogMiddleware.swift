import Hummingbird

/// One structured log line per request, once it is answered: method, the route it matched
/// (`/v1/sessions/{id}/head`, never the id), status and duration, with Hummingbird's request id.
/// No header, query or body is ever logged, so no token, payload, cursor or session id (which an
/// app may make from a user id) reaches a log.
struct RequestLogMiddleware: RouterMiddleware {
  typealias Context = CollectorContext

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    let started = ContinuousClock.now
    do {
      let response = try await next(request, context)
      log(request, context, status: response.status.code, since: started)
      return response
    } catch let error as any HTTPResponseError {
      log(request, context, status: error.status.code, since: started)
      throw error
    } catch {
      log(request, context, status: 500, since: started)
      throw error
    }
  }

  private func log(_ request: Request, _ context: CollectorContext, status: Int, since started: ContinuousClock.Instant)
  {
    let elapsed = (ContinuousClock.now - started).components
    let milliseconds = Double(elapsed.seconds) * 1_000 + Double(elapsed.attoseconds) / 1e15
    context.logger.info(
      "answered",
      metadata: [
        "method": "\(request.method.rawValue)", "route": "\(context.endpointPath ?? "unmatched")",
        "status": "\(status)", "duration_ms": "\((milliseconds * 10).rounded() / 10)",
      ])
  }
}
