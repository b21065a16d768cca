import Hummingbird
import NavCore

/// Token buckets by key: each holds up to `rate.burst` requests and refills at `rate.perSecond`.
///
/// Memory is bounded whatever the number of keys a client makes up: a bucket that has refilled
/// is the same as none, so when `capacity` keys are held the full ones are dropped, and if that
/// is not enough, the ones least recently used (a client whose bucket is dropped early gets a
/// fresh burst, never more than that).
final class TokenBuckets: Sendable {
  private struct Bucket {
    var available: Double
    var at: ContinuousClock.Instant
  }

  let rate: RequestRate
  private let capacity: Int
  private let buckets = Protected<[String: Bucket]>([:])

  init(rate: RequestRate, capacity: Int = 100_000) {
    self.rate = rate
    self.capacity = max(1, capacity)
  }

  /// Takes one request from `key`'s bucket: `nil` when it had one, else the seconds until it
  /// will.
  func take(_ key: String, now: ContinuousClock.Instant = .now) -> Double? {
    let burst = Double(rate.burst)
    return buckets.withLock { buckets in
      var bucket = buckets[key] ?? Bucket(available: burst, at: now)
      bucket.available = min(burst, bucket.available + rate.perSecond * (now - bucket.at).inSeconds)
      bucket.at = now
      if buckets[key] == nil, buckets.count >= capacity {
        Self.makeRoom(in: &buckets, burst: burst, rate: rate, now: now)
      }
      guard bucket.available >= 1 else {
        buckets[key] = bucket
        return (1 - bucket.available) / rate.perSecond
      }
      bucket.available -= 1
      buckets[key] = bucket
      return nil
    }
  }

  /// The seconds until `key`'s bucket holds a request again, `nil` when it holds one now: a
  /// look that takes nothing.
  func wait(_ key: String, now: ContinuousClock.Instant = .now) -> Double? {
    let burst = Double(rate.burst)
    return buckets.withLock { buckets in
      guard let bucket = buckets[key] else { return nil }
      let available = min(burst, bucket.available + rate.perSecond * (now - bucket.at).inSeconds)
      return available >= 1 ? nil : (1 - available) / rate.perSecond
    }
  }

  /// How many keys are held (for tests).
  var count: Int { buckets.withLock { $0.count } }

  private static func makeRoom(
    in buckets: inout [String: Bucket], burst: Double, rate: RequestRate, now: ContinuousClock.Instant
  ) {
    let before = buckets.count
    buckets = buckets.filter { $0.value.available + rate.perSecond * (now - $0.value.at).inSeconds < burst }
    // Still full of clients that are all spending: drop the older half.
    guard buckets.count * 2 > before else { return }
    let byAge = buckets.sorted { $0.value.at < $1.value.at }
    for (key, _) in byAge.prefix(byAge.count / 2 + 1) { buckets[key] = nil }
  }
}

/// The request rates: each client's (a token from one address) and each token's as a whole,
/// the ceiling of a fleet that shares one ingest token. A request
/// past either is a 429 whose `Retry-After` says when the next one will be taken.
struct RateLimitMiddleware: RouterMiddleware {
  typealias Context = CollectorContext
  let clients: TokenBuckets
  let tokens: TokenBuckets
  let metrics: CollectorMetrics

  init(client: RequestRate, token: RequestRate, metrics: CollectorMetrics) {
    clients = TokenBuckets(rate: client)
    tokens = TokenBuckets(rate: token)
    self.metrics = metrics
  }

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    guard let client = RequestClient(request, context: context) else { return try await next(request, context) }
    if let wait = clients.take(client.key) {
      throw refusal(
        wait, "This client (this token, from this address) sent more than \(Self.rate(clients.rate)) requests a second")
    }
    if let wait = tokens.take(client.token) {
      throw refusal(wait, "This token's clients together sent more than \(Self.rate(tokens.rate)) requests a second")
    }
    return try await next(request, context)
  }

  private func refusal(_ wait: Double, _ what: String) -> CollectorError {
    metrics.refused("rate")
    let seconds = max(1, Int(wait.rounded(.up)))
    return CollectorError.tooManyRequests("\(what); retry after \(seconds) s", retryAfter: seconds)
  }

  private static func rate(_ rate: RequestRate) -> String {
    rate.perSecond == rate.perSecond.rounded() ? String(Int(rate.perSecond)) : String(rate.perSecond)
  }
}
