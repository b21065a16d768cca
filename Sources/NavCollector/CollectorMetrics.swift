import Metrics
import NavPersistence
import Prometheus

/// The collector's metrics, in a Prometheus registry of its own (no process-wide bootstrap, so
/// two collectors in one process, as in the tests, count apart): requests by endpoint and
/// status, uploaded lines by outcome and reason, request and commit latency, open requests.
/// `GET /metrics` prints them in Prometheus's text format.
final class CollectorMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let factory: PrometheusMetricsFactory
  private let open: Meter

  init() {
    var factory = PrometheusMetricsFactory(registry: registry)
    let buckets: [Duration] = [
      .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2),
      .seconds(10),
    ]
    factory.defaultDurationHistogramBuckets = buckets
    self.factory = factory
    open = Meter(label: "navstore_open_requests", factory: factory)
  }

  /// A request began (`+1`) or ended (`-1`).
  func openRequests(_ change: Int) {
    if change > 0 { open.increment(by: Double(change)) } else { open.decrement(by: Double(-change)) }
  }

  /// A request ended, at `endpoint` (the route's pattern, or `unmatched`), with `status`.
  func request(endpoint: String, status: Int, duration: Duration) {
    Counter(
      label: "navstore_http_requests_total", dimensions: [("endpoint", endpoint), ("status", String(status))],
      factory: factory
    )
    .increment()
    Timer(label: "navstore_http_request_duration_seconds", dimensions: [("endpoint", endpoint)], factory: factory)
      .recordNanoseconds(duration.nanoseconds)
  }

  /// An upload's lines, by outcome and reason, and the time its transaction took.
  func upload(_ outcome: UploadOutcome, commit: Duration) {
    for line in outcome.lines {
      let (name, reason): (String, String) =
        switch line.outcome {
        case .accepted: ("accepted", "")
        case .duplicate: ("duplicate", "")
        case .rejected(let rejection): ("rejected", rejection.reason.rawValue)
        }
      Counter(
        label: "navstore_upload_lines_total", dimensions: [("outcome", name), ("reason", reason)], factory: factory
      )
      .increment()
    }
    Timer(label: "navstore_commit_duration_seconds", factory: factory).recordNanoseconds(commit.nanoseconds)
  }

  /// A request refused for backpressure (`429` or `503`).
  func refused(_ why: String) {
    Counter(label: "navstore_refused_requests_total", dimensions: [("why", why)], factory: factory).increment()
  }

  /// The metrics in Prometheus's text format.
  func text() -> [UInt8] { registry.emitToBuffer() }
}

extension Duration {
  /// The duration in whole nanoseconds, held at `Int64.max`.
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? .max : whole &+ attoseconds / 1_000_000_000
  }
}
