import Foundation
import Hummingbird
import NavCore
import NavPersistence

/// The collector's admission: at most `maximumOpen` requests at once (past it, 503 with
/// `Retry-After`, before any work), each one timed and counted in the metrics.
struct AdmissionMiddleware: RouterMiddleware {
  typealias Context = CollectorContext
  let maximumOpen: Int
  let metrics: CollectorMetrics
  let open = Protected(0)

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    let admitted = open.withLock { count in
      guard count < maximumOpen else { return false }
      count += 1
      return true
    }
    guard admitted else {
      metrics.refused("open-requests")
      throw CollectorError.unavailable("The collector is at its limit of \(maximumOpen) open requests")
    }
    metrics.openRequests(1)
    defer {
      open.withLock { $0 -= 1 }
      metrics.openRequests(-1)
    }
    return try await AnsweredStatus.observing(
      { try await next(request, context) },
      note: { status, duration in
        metrics.request(endpoint: context.endpointPath ?? "unmatched", status: status, duration: duration)
      })
  }
}

/// Each token's request rate: a bucket of `burst` requests that refills at `perSecond`; a
/// request past it is a 429 whose `Retry-After` says when the next one is allowed. Memory is
/// one entry per token that made a request.
struct RateLimitMiddleware: RouterMiddleware {
  typealias Context = CollectorContext
  let perSecond: Double
  let burst: Double
  let metrics: CollectorMetrics
  private let buckets = Protected<[String: (tokens: Double, at: ContinuousClock.Instant)]>([:])

  init(perSecond: Double, burst: Int, metrics: CollectorMetrics) {
    self.perSecond = perSecond
    self.burst = Double(burst)
    self.metrics = metrics
  }

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    guard let token = context.token else { return try await next(request, context) }
    let now = ContinuousClock.now
    let wait: Double? = buckets.withLock { buckets in
      var bucket = buckets[token.id] ?? (burst, now)
      let elapsed = now - bucket.at
      bucket.tokens = min(burst, bucket.tokens + perSecond * elapsed.inSeconds)
      bucket.at = now
      defer { buckets[token.id] = bucket }
      guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / perSecond }
      bucket.tokens -= 1
      return nil
    }
    if let wait {
      metrics.refused("rate")
      let seconds = max(1, Int(wait.rounded(.up)))
      throw CollectorError(
        status: .tooManyRequests, code: "too-many-requests",
        message: "This token sent more than \(Int(perSecond)) requests a second; retry after \(seconds) s.",
        headers: [.retryAfter: "\(seconds)"])
    }
    return try await next(request, context)
  }
}
