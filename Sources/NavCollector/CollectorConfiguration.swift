/// What an upload may hold, counted after decompression: the contract's limits, which
/// `navstore serve` may change and `GET /v1/limits` reports.
public struct UploadLimits: Hashable, Sendable {
  /// The longest line, in bytes.
  public var lineBytes: Int
  /// The most lines in one request.
  public var requestLines: Int
  /// The most bytes in one request.
  public var requestBytes: Int

  /// The contract's defaults: 256 KiB a line, 5,000 lines and 8 MiB a request.
  public static let contract = UploadLimits(lineBytes: 256 * 1024, requestLines: 5_000, requestBytes: 8 * 1024 * 1024)

  /// Limits.
  public init(lineBytes: Int, requestLines: Int, requestBytes: Int) {
    self.lineBytes = lineBytes
    self.requestLines = requestLines
    self.requestBytes = requestBytes
  }
}

/// How a collector listens and what it accepts.
public struct CollectorConfiguration: Sendable {
  /// The address to listen on.
  public var host: String
  /// The port (0: one the system picks, which the ready line names).
  public var port: Int
  /// What an upload may hold.
  public var limits: UploadLimits
  /// How long a connection may stay without a byte in either direction before it is closed: a
  /// client that stops sending does not hold a connection forever.
  public var idleTimeout: Duration
  /// How long an upload's body may take to arrive, and how long a client may take to read each
  /// chunk of a streamed answer: a client that sends a byte a second, or stops reading an
  /// export, holds a connection this long at most. Past it, an upload is a 408.
  public var requestTimeout: Duration
  /// The most requests served at once; past it, 503 with `Retry-After`.
  public var maximumOpenRequests: Int
  /// Each token's sustained requests per second; past it (and its burst), 429.
  public var requestsPerSecond: Double
  /// How many requests a token may send at once above its rate.
  public var burst: Int

  /// A configuration; the contract's address and limits unless given.
  public init(
    host: String = "127.0.0.1", port: Int = 8740, limits: UploadLimits = .contract,
    idleTimeout: Duration = .seconds(30), requestTimeout: Duration = .seconds(60),
    maximumOpenRequests: Int = 64, requestsPerSecond: Double = 50, burst: Int = 100
  ) {
    self.host = host
    self.port = port
    self.limits = limits
    self.idleTimeout = idleTimeout
    self.requestTimeout = requestTimeout
    self.maximumOpenRequests = maximumOpenRequests
    self.requestsPerSecond = requestsPerSecond
    self.burst = burst
  }
}
