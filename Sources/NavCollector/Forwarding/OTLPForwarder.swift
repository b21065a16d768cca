import Foundation
import Logging
@_spi(Internals) import NavArchive
import NavContract
import NavFleet
import ServiceLifecycle

/// Forwards each app's navigation, as it arrives, to an OpenTelemetry endpoint: the records
/// `navstore export --format otlp` writes, posted as OTLP/HTTP JSON.
///
/// **Rounds.** For each app in turn, a round asks the store for its cursor now, exports what
/// arrived since the app's forwarding cursor up to it into a spool file (so the store is never
/// held while the endpoint is slow), posts the spool in batches, and only then moves the app's
/// cursor on, durably. A round cut short (a restart, a crash) is sent again from the old cursor:
/// every record reaches the endpoint at least once. Rounds follow the order in which the store
/// received events; within one, records come by session, each session's in order.
///
/// **Failures.** Each batch is posted until the endpoint takes it, by the collector's
/// `RetryPolicy`: no answer, 408, 429, 502, 503, 504 (after `Retry-After`, held at 5 minutes), any
/// 5xx, and a refused key (401, 403: logged as errors) are sent again after a backoff, so an
/// outage or a wrong key holds the records back, never loses them. A 413 splits the batch. A 400
/// (the endpoint will never take the records), a record too large alone, and the records a
/// `partialSuccess` names are counted as rejected and logged.
///
/// **Memory** holds one batch (at most `batchRecords` records and `batchBytes` bytes) and one
/// chunk of the spool. The metrics say how far behind it is (`navstore_forward_lag_seconds`),
/// what was sent and refused, and how many requests were sent again.
package struct OTLPForwarder: Service {
  let backend: any FleetBackend
  let configuration: ForwardingConfiguration
  let metrics: CollectorMetrics
  let logger: Logger
  private let sender: OTLPSender

  /// A forwarder of `backend`'s apps, counting in metrics of its own.
  package init(backend: any FleetBackend, configuration: ForwardingConfiguration, logger: Logger) {
    self.init(backend: backend, configuration: configuration, logger: logger, metrics: CollectorMetrics())
  }

  /// A forwarder counting in the collector's `metrics`.
  init(backend: any FleetBackend, configuration: ForwardingConfiguration, logger: Logger, metrics: CollectorMetrics) {
    self.backend = backend
    self.configuration = configuration
    self.metrics = metrics
    self.logger = logger
    sender = OTLPSender(configuration)
  }

  /// Forwards until the service group shuts down (or the task is cancelled).
  package func run() async throws {
    try FileManager.default.createDirectory(atPath: configuration.stateFolder, withIntermediateDirectories: true)
    logger.info(
      "forwarding navigation to OpenTelemetry",
      metadata: ["endpoint_host": "\(configuration.endpoint.host ?? "")", "state": "\(configuration.stateFolder)"])
    await cancelWhenGracefulShutdown { await forward() }
  }

  /// Rounds over every app, a pause, and again, until cancelled. An app whose round failed
  /// waits out a backoff (from the poll interval, doubling to 5 minutes) before its next one.
  func forward() async {
    var lags: [AppName: ForwardLag] = [:]
    var failures: [AppName: (count: Int, notBefore: ContinuousClock.Instant)] = [:]
    while !Task.isCancelled {
      do {
        let apps: [AppName]
        if let chosen = configuration.apps { apps = chosen } else { apps = try await backend.apps() }
        for app in apps {
          if let failed = failures[app], ContinuousClock.now < failed.notBefore { continue }
          var lag = lags[app] ?? ForwardLag()
          defer { lags[app] = lag }
          do {
            try await round(app, lag: &lag)
            failures[app] = nil
          } catch is CancellationError {
            return
          } catch {
            guard !Task.isCancelled else { return }
            let count = (failures[app]?.count ?? 0) + 1
            let wait = min(configuration.pollInterval * Double(1 << min(count - 1, 16)), .seconds(300))
            failures[app] = (count, .now + wait)
            logger.warning(
              "forwarding stopped for \(Self.seconds(wait)): \(error)", metadata: ["app": "\(app)"])
          }
        }
      } catch {
        logger.warning("forwarding cannot list the apps: \(error)")
      }
      try? await Task.sleep(for: configuration.pollInterval)
    }
  }

  /// One round for `app`: what arrived since its cursor, spooled, sent, and the cursor moved on.
  func round(_ app: AppName, lag: inout ForwardLag) async throws {
    let cursor = ForwardCursor(folder: configuration.stateFolder, app: app.rawValue)
    var filter = ExportFilter(after: try cursor.read())
    filter.omitsPayloads = configuration.omitsPayloads
    filter.keptPayloadFields = configuration.keptPayloadFields
    let began = ContinuousClock.now
    let now = try await backend.checkExport(filter, app: app)
    if filter.answering(now) == nil {
      logger.warning(
        "the store's cursor (\(now)) is behind what was forwarded (\(filter.after ?? 0)): the store was restored or replaced; forwarding everything again",
        metadata: ["app": "\(app)"])
      filter.after = nil
    }
    guard let bounded = filter.answering(now) else { return }
    if let after = filter.after, now <= after {
      lag.caughtUp()
      metrics.forwardLag(app: app.rawValue, seconds: 0)
      return
    }
    lag.sawNew()
    metrics.forwardLag(app: app.rawValue, seconds: lag.seconds)
    let spool = (configuration.stateFolder as NSString).appendingPathComponent("\(app.rawValue).spool")
    defer { try? FileManager.default.removeItem(atPath: spool) }
    try await spoolExport(app, filter: bounded, to: spool)
    try await send(spool, app: app, lag: lag)
    try cursor.write(now)
    // What is left arrived after the round began.
    lag.sent(upTo: began)
    metrics.forwardLag(app: app.rawValue, seconds: lag.seconds)
  }

  /// Writes the app's records between the filter's cursors to `path`.
  private func spoolExport(_ app: AppName, filter: ExportFilter, to path: String) async throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    defer { try? handle.close() }
    try await backend.export(.screenViews, format: .otlp, filter: filter, app: app) { chunk in
      try handle.write(contentsOf: chunk)
    }
  }

  /// Posts the spool's records in batches, each until the endpoint takes or refuses it.
  private func send(_ spool: String, app: AppName, lag: ForwardLag) async throws {
    guard let handle = FileHandle(forReadingAtPath: spool) else {
      throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: spool])
    }
    defer { try? handle.close() }
    // The spool's lines are the export's, as long as the events they come from allow.
    let reader = LineReader(handle: handle, maximumLineLength: 1 << 30)
    var batch = OTLPBatch()
    while let line = try reader.next() {
      if batch.records > 0,
        batch.records >= configuration.batchRecords || batch.bytes + line.count > configuration.batchBytes
      {
        try await post(batch, app: app)
        metrics.forwardLag(app: app.rawValue, seconds: lag.seconds)
        batch = OTLPBatch()
      }
      if !batch.add(line) {
        logger.error("a spooled line is not an OTLP request; left out", metadata: ["app": "\(app)"])
        metrics.forwarded(app: app.rawValue, sent: 0, rejected: 1)
      }
    }
    if batch.records > 0 { try await post(batch, app: app) }
  }

  /// Posts one batch until the endpoint takes it (or refuses it for good).
  private func post(_ batch: OTLPBatch, app: AppName) async throws {
    var failures = 0
    while true {
      try Task.checkCancellation()
      let outcome = await sender.post(batch.request)
      if case .answered(status: 400, _) = outcome.attempt {
        // The endpoint will never take a record it finds malformed: halves until it stands alone,
        // so the others still go.
        guard batch.records == 1 else {
          let (first, second) = batch.halves
          try await post(first, app: app)
          try await post(second, app: app)
          return
        }
        logger.error(
          "the OTLP endpoint refused a record as malformed (400); left out",
          metadata: ["app": "\(app)", "said": "\(outcome.message ?? "")"])
        metrics.forwarded(app: app.rawValue, sent: 0, rejected: 1)
        return
      }
      failures = outcome.attempt == .answered(status: 200, retryAfter: nil) ? failures : failures + 1
      let decision = configuration.retry.decide(
        after: outcome.attempt, failures: failures, lines: batch.records, jitter: Double.random(in: 0.5...1))
      switch decision {
      case .take:
        let rejected = min(outcome.rejected, batch.records)
        if rejected > 0 {
          logger.error(
            "the OTLP endpoint took a request but refused \(rejected) of its \(batch.records) records",
            metadata: ["app": "\(app)", "said": "\(outcome.message ?? "")"])
        }
        metrics.forwarded(app: app.rawValue, sent: batch.records - rejected, rejected: rejected)
        return
      case .split:
        let (first, second) = batch.halves
        try await post(first, app: app)
        try await post(second, app: app)
        return
      case .hold, .fail:
        logger.error(
          "the OTLP endpoint refused \(batch.records) record(s) for good (\(Self.wording(outcome.attempt))); left out",
          metadata: ["app": "\(app)", "said": "\(outcome.message ?? "")"])
        metrics.forwarded(app: app.rawValue, sent: 0, rejected: batch.records)
        return
      case .stop, .retry:
        // A wrong or expired key (`stop`) waits for the operator to mend it; anything else for
        // the endpoint. Either way the records wait, said at the first failure and every tenth.
        let refusedKey = decision == .stop
        let wait: Duration
        if case .retry(let asked) = decision {
          wait = asked
        } else {
          wait = configuration.retry.backoff(failures: failures, jitter: Double.random(in: 0.5...1))
        }
        if failures == 1 || failures % 10 == 0 {
          let what =
            refusedKey
            ? "refused the forwarder's credentials (\(Self.wording(outcome.attempt))); trying again"
            : "did not take a request (\(Self.wording(outcome.attempt))); sending it again"
          logger.log(
            level: refusedKey ? .error : .warning, "the OTLP endpoint \(what) in \(Self.seconds(wait))",
            metadata: ["app": "\(app)", "failures_in_a_row": "\(failures)"])
        }
        metrics.forwardRetried(app: app.rawValue)
        try await Task.sleep(for: wait)
      }
    }
  }
}

extension OTLPForwarder {
  /// How an attempt ended, for a log line: `HTTP 503`, or `no answer`.
  static func wording(_ attempt: RetryPolicy.Attempt) -> String {
    switch attempt {
    case .answered(let status, _): "HTTP \(status)"
    case .noAnswer: "no answer"
    }
  }

  /// A wait, for a log line: `1.5 s`.
  static func seconds(_ wait: Duration) -> String { String(format: "%.1f s", wait.inSeconds) }
}

/// How long an app's forwarding has been behind: since the start of the last round that sent
/// everything there was when it began (or since new records were first seen), until a round
/// finds nothing new.
struct ForwardLag: Sendable {
  private var since: ContinuousClock.Instant?

  /// New records are waiting (the lag begins now, unless it already had).
  mutating func sawNew() { since = since ?? .now }

  /// Everything that arrived before `start` was sent: what waits arrived after it.
  mutating func sent(upTo start: ContinuousClock.Instant) { since = start }

  /// Nothing is waiting.
  mutating func caughtUp() { since = nil }

  /// The lag now, in seconds.
  var seconds: Double { since.map { (ContinuousClock.now - $0).inSeconds } ?? 0 }
}
