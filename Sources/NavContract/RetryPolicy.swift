import Foundation

/// Every retry decision of the uploader, of `navstore push` and of the collector's OTLP
/// forwarder, in one pure type: what to do after one attempt at a request, from its outcome, the
/// failures in a row before it, and the batch's size. No network, no clock, no sleeping: the
/// caller acts on the decision (the uploader returns from `flush()` with the delay, `push` and
/// the forwarder wait it out).
///
/// The rules, from the collector's contract:
/// - 200: the answer is taken.
/// - 413: the batch is over the collector's limits. Several lines: split it. One line alone:
///   hold its session (`too-large`).
/// - 401, 403: the token is refused; stop until the app starts the uploader again.
/// - 408, 429, 502, 503, 504: the collector or a proxy asks to wait: after `Retry-After` when
///   it says one, capped at `maximumRetryAfter` (a collector's mistake, or a hostile proxy, may
///   not park a device for a day); else the backoff.
/// - No answer (the connection failed before or after the body went): the backoff.
/// - Any other answer (a 500, a 404): the backoff when `retriesOtherAnswers` (the uploader, which
///   has all the time it needs), else it is final (`push`, which reports it to its user).
///
/// The backoff starts at `firstBackoff`, doubles with each failure in a row up to
/// `maximumBackoff`, and is scaled by a jitter between 0.5 and 1 that the caller draws, so
/// that devices that failed together do not come back together.
package struct RetryPolicy: Sendable, Hashable {
  /// The first backoff.
  package var firstBackoff: Duration
  /// The longest backoff.
  package var maximumBackoff: Duration
  /// The longest wait a `Retry-After` may ask for.
  package var maximumRetryAfter: Duration
  /// Whether an answer the contract gives no rule for is sent again after the backoff.
  package var retriesOtherAnswers: Bool

  /// A policy with these bounds; by default 1 s, doubling to 10 minutes, and `Retry-After`
  /// honoured up to 10 minutes.
  package init(
    firstBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(600),
    maximumRetryAfter: Duration = .seconds(600), retriesOtherAnswers: Bool = true
  ) {
    self.firstBackoff = firstBackoff
    self.maximumBackoff = max(firstBackoff, maximumBackoff)
    self.maximumRetryAfter = maximumRetryAfter
    self.retriesOtherAnswers = retriesOtherAnswers
  }

  /// How one attempt ended.
  package enum Attempt: Sendable, Hashable {
    /// The collector (or a proxy) answered `status`, with `Retry-After` when it said one.
    case answered(status: Int, retryAfter: Duration?)
    /// No answer came: the connection failed, timed out or was cut, before or after the body.
    case noAnswer
  }

  /// What to do next.
  package enum Decision: Sendable, Hashable {
    /// Take the answer: the request is done.
    case take
    /// Send the batch again in halves.
    case split
    /// Hold the one line's session: the collector will never take it as it is.
    case hold
    /// The token is refused: send nothing more.
    case stop
    /// The answer is final: hand it to the caller as it is.
    case fail
    /// Send it again after this long.
    case retry(after: Duration)
  }

  /// The decision after `attempt`, the `failures`-th failure in a row counting this one when
  /// it failed, for a batch of `lines` lines; `jitter` (0.5 to 1, drawn by the caller) scales
  /// the backoff.
  package func decide(after attempt: Attempt, failures: Int, lines: Int, jitter: Double) -> Decision {
    switch attempt {
    case .answered(status: 200, _):
      return .take
    case .answered(status: 413, _):
      return lines > 1 ? .split : .hold
    case .answered(status: 401, _), .answered(status: 403, _):
      return .stop
    case .answered(let status, let retryAfter?) where Self.asksToWait.contains(status):
      return .retry(after: min(max(retryAfter, .zero), maximumRetryAfter))
    case .answered(let status, _) where Self.asksToWait.contains(status) || retriesOtherAnswers:
      return .retry(after: backoff(failures: failures, jitter: jitter))
    case .answered:
      return .fail
    case .noAnswer:
      return .retry(after: backoff(failures: failures, jitter: jitter))
    }
  }

  /// The backoff after `failures` failures in a row.
  package func backoff(failures: Int, jitter: Double) -> Duration {
    let doublings = max(0, min(failures, 40) - 1)
    let grown = firstBackoff * pow(2, Double(doublings))
    return min(maximumBackoff, grown) * min(max(jitter, 0.5), 1)
  }

  /// The statuses with which a collector or a proxy asks the client to wait and send again.
  package static let asksToWait: Set<Int> = [408, 429, 502, 503, 504]

  /// The wait a `Retry-After` header asks for: seconds (RFC 9110 also allows a date, which the
  /// collector never sends; it reads as no wait asked).
  package static func retryAfter(_ header: String?) -> Duration? {
    guard let header, let seconds = Int(header.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
    return .seconds(seconds)
  }
}
