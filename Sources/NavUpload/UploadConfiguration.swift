import NavCore

/// When and how much a `NavigationUploader` sends.
public struct UploadConfiguration: Sendable {
  /// Events in one request, at most (the contract allows 5,000 lines and 8 MiB).
  public var batchEvents: Int
  /// Upload once this many events wait, without waiting for `interval`.
  public var flushAt: Int
  /// Upload what waits at least this often.
  public var interval: Duration
  /// How often the background loop looks again while the day's budget is spent (a cheaper
  /// network or a new day ends it). Otherwise the loop sleeps until the store is written or an
  /// upload is due, and reads nothing meanwhile.
  public var pollInterval: Duration
  /// The longest wait between attempts while the collector cannot be reached, and the most a
  /// collector's `Retry-After` is honoured (a longer one is cut to it).
  public var maximumBackoff: Duration
  /// How long one request may wait for its answer.
  public var requestTimeout: Duration
  /// What of each session leaves the device.
  public var privacy: @Sendable (SessionID) -> UploadPrivacy
  /// How many bytes may be sent a day.
  public var budget: UploadBudget
  /// The time the budget's days are counted in (the tests move it; an app leaves it be).
  package var now: @Sendable () -> Timestamp = { Timestamp.now }

  /// The defaults follow the analytics SDKs apps already ship (Segment and PostHog send every
  /// 20 events or 30 s): batches of 1,000 events, at 20 waiting or every 30 s, a look every 5 s,
  /// backoff up to 10 minutes, 60 s per request, everything sent, no daily cap.
  public init(
    batchEvents: Int = 1_000, flushAt: Int = 20, interval: Duration = .seconds(30),
    pollInterval: Duration = .seconds(5),
    maximumBackoff: Duration = .seconds(600), requestTimeout: Duration = .seconds(60),
    privacy: @escaping @Sendable (SessionID) -> UploadPrivacy = { _ in .everything },
    budget: UploadBudget = UploadBudget()
  ) {
    self.batchEvents = max(1, min(batchEvents, 5_000))
    self.flushAt = max(1, flushAt)
    self.interval = interval
    self.pollInterval = pollInterval
    self.maximumBackoff = maximumBackoff
    self.requestTimeout = requestTimeout
    self.privacy = privacy
    self.budget = budget
  }
}
