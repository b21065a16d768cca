/// The tokens that were none (wrong, unknown, revoked, expired), counted by client address: past
/// `TokenBuckets`' rate, the address's requests that need a token are refused before any look at
/// the store, until its bucket refills. Someone guessing tokens in a loop then costs a map lookup
/// a try, and learns nothing but the wait.
///
/// Every device behind one address (a carrier's NAT) shares its bucket: a burst of revoked
/// tokens there holds the others back for as long as the bucket takes to refill.
struct GuessLimit: Sendable {
  let buckets: TokenBuckets
  let metrics: CollectorMetrics

  init(rate: RequestRate, metrics: CollectorMetrics) {
    buckets = TokenBuckets(rate: rate)
    self.metrics = metrics
  }

  /// Throws a 429 when the client at `address` has presented tokens that were none faster than
  /// the rate.
  func check(_ address: String?) throws {
    guard let wait = buckets.wait(Self.key(address)) else { return }
    metrics.refused("guesses")
    let seconds = max(1, Int(wait.rounded(.up)))
    throw CollectorError.tooManyRequests(
      "This address presented too many tokens that are none; retry after \(seconds) s", retryAfter: seconds)
  }

  /// Counts a token that was none from the client at `address`.
  func noteNone(_ address: String?) { _ = buckets.take(Self.key(address)) }

  /// A client without an address (a test's router) is one client; an IPv6 client is its /64.
  private static func key(_ address: String?) -> String { ClientAddress.shareKey(of: address) ?? "" }
}
