import NavCore
import NavFleet
import NavPersistence
import Prometheus

/// The collector's metrics, in a Prometheus registry of its own (no process-wide bootstrap, so
/// two collectors in one process, as in the tests, count apart), each with its `# HELP` and
/// `# TYPE` lines: requests by endpoint and status, uploaded lines by outcome and reason,
/// request and commit latency, requests under way and refused; and, read when scraped, the
/// process's memory, CPU time and descriptors and each app store's files.
final class CollectorMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  /// The lines rejected, by app and reason, for the console's overview.
  let rejections = RejectionTally()
  private let openAll: Gauge
  private let openUploads: Gauge
  private let openReads: Gauge
  private let commit: DurationHistogram
  /// The metrics of each endpoint and status answered, and of each outcome of an uploaded line,
  /// made once: asked of the registry again, they cost every request a lookup by their labels.
  private let answered = Protected<[Answered: (requests: Counter, duration: DurationHistogram)]>([:])
  private let uploadLines = Protected<[String: Counter]>([:])

  static let buckets: [Duration] = [
    .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2),
    .seconds(10),
  ]

  init() {
    openAll = registry.makeGauge(
      descriptor: Self.name("open", "requests", "Requests under way (uploads and reads; the probes are not counted)."))
    openUploads = registry.makeGauge(descriptor: Self.name("open", "uploads", "Uploads under way."))
    openReads = registry.makeGauge(
      descriptor: Self.name("open", "reads", "Reads under way (every /v1/ endpoint but uploads)."))
    commit = registry.makeDurationHistogram(
      descriptor: Self.name(
        "commit_duration", "seconds", "Time an upload's write transaction took, from its first line to its commit."),
      buckets: Self.buckets)
  }

  private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
    MetricNameDescriptor(namespace: "navstore", metricName: metric, unitName: unit, helpText: help)
  }

  /// A request of `kind` began (`+1`) or ended (`-1`).
  func openRequests(_ kind: RequestKind, _ change: Int) {
    openAll.increment(by: Double(change))
    (kind == .upload ? openUploads : openReads).increment(by: Double(change))
  }

  /// A request was answered, at `endpoint` (the route's pattern, or `unmatched`), with `status`.
  func request(endpoint: String, status: Int, duration: Duration) {
    let key = Answered(endpoint: endpoint, status: status)
    let metrics =
      answered.withLock { $0[key] }
      ?? {
        let made = (
          requests: registry.makeCounter(
            descriptor: Self.name(
              "http_requests", "total",
              "Requests answered, by the route matched and the status (499: the client left)."),
            labels: [("endpoint", endpoint), ("status", String(status))]),
          duration: registry.makeDurationHistogram(
            descriptor: Self.name(
              "http_request_duration", "seconds",
              "Time from a request's arrival to the end of its answer (a stream's last byte), by the route matched."),
            labels: [("endpoint", endpoint)], buckets: Self.buckets)
        )
        answered.withLock { $0[key] = made }
        return made
      }()
    metrics.requests.increment()
    metrics.duration.record(duration)
  }

  /// An endpoint (a route's pattern, a finite set) and a status answered.
  private struct Answered: Hashable {
    let endpoint: String
    let status: Int
  }

  /// An upload's lines, by outcome and reason, and the time its transaction took.
  func upload(_ outcome: UploadOutcome, app: AppName, commit duration: Duration) {
    rejections.note(outcome, app: app)
    var counts: [String: Int] = [:]
    for line in outcome.lines {
      let key: String =
        switch line.outcome {
        case .accepted: "accepted "
        case .duplicate: "duplicate "
        case .rejected(let rejection): "rejected " + rejection.reason.rawValue
        }
      counts[key, default: 0] += 1
    }
    for (key, count) in counts {
      let counter =
        uploadLines.withLock { $0[key] }
        ?? {
          let parts = key.split(separator: " ", omittingEmptySubsequences: false)
          let made = registry.makeCounter(
            descriptor: Self.name(
              "upload_lines", "total",
              "Uploaded lines, by outcome (accepted, duplicate, rejected) and a rejection's reason."),
            labels: [("outcome", String(parts[0])), ("reason", String(parts[1]))])
          uploadLines.withLock { $0[key] = made }
          return made
        }()
      counter.increment(by: Int64(count))
    }
    commit.record(duration)
  }

  /// A request refused before it was served (`429` or `503`), and why.
  func refused(_ why: String) {
    registry.makeCounter(
      descriptor: Self.name(
        "refused_requests", "total",
        "Requests refused for load (open-uploads, open-reads, client-uploads, client-reads, rate, timeout)."),
      labels: [("why", why)]
    ).increment()
  }

  /// The process's figures, as of now.
  func note(_ process: ProcessFigures) {
    func gauge(_ name: String, _ help: String) -> Gauge {
      registry.makeGauge(descriptor: MetricNameDescriptor(metricName: "process_" + name, unitName: "", helpText: help))
    }
    if let bytes = process.residentBytes {
      gauge("resident_memory_bytes", "Resident memory size in bytes.").set(Double(bytes))
    }
    if let bytes = process.virtualBytes {
      gauge("virtual_memory_bytes", "Virtual memory size in bytes.").set(Double(bytes))
    }
    if let seconds = process.cpuSeconds {
      gauge("cpu_seconds_total", "User and system CPU time spent, in seconds.").set(seconds)
    }
    if let count = process.openDescriptors { gauge("open_fds", "Open file descriptors.").set(Double(count)) }
    if let count = process.maximumDescriptors {
      gauge("max_fds", "The most file descriptors the process may open.").set(Double(count))
    }
    if let seconds = process.startTime {
      gauge("start_time_seconds", "When the process started, in seconds since 1970.").set(seconds)
    }
  }

  /// Each app store's files and whether it can take writes, as of now.
  func note(_ stores: [StoreFigures]) {
    for store in stores {
      registry.makeGauge(
        descriptor: Self.name("store_file", "bytes", "Size of each app store's database file and write-ahead log."),
        labels: [("app", store.app), ("file", "database")]
      ).set(Double(store.databaseBytes))
      registry.makeGauge(
        descriptor: Self.name("store_file", "bytes", "Size of each app store's database file and write-ahead log."),
        labels: [("app", store.app), ("file", "wal")]
      ).set(Double(store.walBytes))
      registry.makeGauge(
        descriptor: Self.name(
          "store_ready", "",
          "1 while an app store's file is the one the collector writes, 0 once it was removed or replaced."),
        labels: [("app", store.app)]
      ).set(Double(store.ready ? 1 : 0))
    }
  }

  /// The forwarder's records of `app` the endpoint took (`sent`) or refused for good
  /// (`rejected`: a 400, a record too large alone, or its `partialSuccess`).
  func forwarded(app: String, sent: Int, rejected: Int) {
    for (outcome, count) in [("sent", sent), ("rejected", rejected)] where count > 0 {
      registry.makeCounter(
        descriptor: Self.name(
          "forwarded_records", "total",
          "Records the OTLP forwarder sent that the endpoint took (sent), or refused for good (rejected)."),
        labels: [("app", app), ("outcome", outcome)]
      ).increment(by: Int64(count))
    }
  }

  /// A request of the forwarder that will be sent again: the endpoint did not answer, or asked
  /// it to wait.
  func forwardRetried(app: String) {
    registry.makeCounter(
      descriptor: Self.name(
        "forward_retries", "total", "Requests of the OTLP forwarder sent again (no answer, 429, 5xx, 401/403)."),
      labels: [("app", app)]
    ).increment()
  }

  /// How far behind the forwarder is on `app`: how long the oldest record not yet taken by the
  /// endpoint has been waiting since the forwarder saw it (0 when caught up).
  func forwardLag(app: String, seconds: Double) {
    registry.makeGauge(
      descriptor: Self.name(
        "forward_lag", "seconds",
        "How long the oldest of an app's records the OTLP endpoint has not taken has been waiting (0: caught up)."),
      labels: [("app", app)]
    ).set(seconds)
  }

  /// The metrics in Prometheus's text format.
  func text() -> [UInt8] { registry.emitToBuffer() }
}
