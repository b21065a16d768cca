import Foundation
import NavContract

/// A certificate chain and its private key, as PEM files: what a collector serving HTTPS
/// presents.
package struct TLSFiles: Hashable, Sendable {
  /// The certificate, then any intermediates, in PEM.
  package var certificateChain: String
  /// The certificate's private key, in PEM.
  package var privateKey: String

  /// The two files.
  package init(certificateChain: String, privateKey: String) {
    self.certificateChain = certificateChain
    self.privateKey = privateKey
  }
}

/// How many requests of one kind may be under way at once: in all, for one app, and for one
/// client (a token from one address). Past any, the request is refused before any work.
package struct OpenRequestLimit: Hashable, Sendable {
  /// The most under way at once, all clients together; past it, 503.
  package var total: Int
  /// The most under way at once for one client; past it, 429.
  package var perClient: Int
  /// The most under way at once for one app, when not the default: three quarters of the pool
  /// (one at least), so that the other apps always have a quarter of it. A collector of one app
  /// may give it the whole pool.
  package var perAppSetting: Int?

  /// The most under way at once for one app; past it, 503.
  package var perApp: Int { min(total, perAppSetting ?? max(1, total * 3 / 4)) }

  /// A limit.
  package init(total: Int, perClient: Int, perApp: Int? = nil) {
    self.total = total
    self.perClient = perClient
    perAppSetting = perApp
  }
}

/// A rate: requests a second, and how many may come at once above it.
package struct RequestRate: Hashable, Sendable {
  /// The sustained rate.
  package var perSecond: Double
  /// The most requests at once above the rate (the bucket's size).
  package var burst: Int

  /// A rate.
  package init(perSecond: Double, burst: Int) {
    self.perSecond = perSecond
    self.burst = burst
  }
}

/// How a collector listens and what it accepts.
package struct CollectorConfiguration: Sendable {
  /// The address to listen on: a host name, an IPv4 address or an IPv6 address (no brackets).
  package var host: String
  /// The port (0: one the system picks, which the ready line names).
  package var port: Int
  /// The certificate to serve HTTPS with; `nil` serves plain HTTP.
  package var tls: TLSFiles?
  /// The proxies whose `X-Forwarded-For` names the client (the request log's `client`).
  package var trustedProxies: [IPNetwork]
  /// What an upload may hold.
  package var limits: UploadLimits
  /// How long a connection may stay without a byte in either direction before it is closed: a
  /// client that stops sending does not hold a connection forever.
  package var idleTimeout: Duration
  /// How long an upload's body may take to arrive, and how long a client may take to read each
  /// chunk of a streamed answer: a client that sends a byte a second, or stops reading an
  /// export, holds a connection this long at most. Past it, an upload is a 408.
  package var requestTimeout: Duration
  /// Uploads under way at once. The probes and the metrics are never counted or refused.
  package var openUploads: OpenRequestLimit
  /// Reads (every endpoint under `/v1/` but uploads) under way at once.
  package var openReads: OpenRequestLimit
  /// Each client's rate (a token from one address); past it, 429.
  package var clientRate: RequestRate
  /// Each token's rate, all its clients together: the ceiling of a fleet that shares one
  /// ingest token; past it, 429.
  package var tokenRate: RequestRate
  /// Each client address's rate of tokens that are none (wrong, unknown, revoked, expired), at
  /// the API and at the console's sign-in: past it, the address's requests are 429 without a
  /// look at the store, until its bucket refills. Guessing costs the store nothing then.
  package var guessRate: RequestRate
  /// How many streamed reads (exports, histories) may read and encode a chunk at once; the
  /// others wait their turn, so that reads never take the cores uploads need (see
  /// `StreamTurns`). Half the cores by default, one at least.
  package var streamsAtOnce: Int
  /// How far ahead of this collector's clock a line may be dated: a later line is refused
  /// (`from-the-future`), so that no upload can date itself past the views that read up to now.
  package var maxClockAhead: Duration
  /// The bearer token `/metrics` asks for (`nil`: none). The figures name every app and its
  /// store's size: a collector whose metrics port the internet reaches should keep them to its
  /// scraper.
  package var metricsToken: String?
  /// Where each app's navigation is forwarded to, as it arrives (`nil`: nowhere).
  package var forwarding: ForwardingConfiguration?

  /// A configuration; the contract's address and limits unless given.
  package init(
    host: String = "127.0.0.1", port: Int = 8740, tls: TLSFiles? = nil, trustedProxies: [IPNetwork] = [],
    limits: UploadLimits = .contract, idleTimeout: Duration = .seconds(30), requestTimeout: Duration = .seconds(60),
    openUploads: OpenRequestLimit = OpenRequestLimit(total: 64, perClient: 4),
    openReads: OpenRequestLimit = OpenRequestLimit(total: 16, perClient: 4),
    clientRate: RequestRate = RequestRate(perSecond: 50, burst: 100),
    tokenRate: RequestRate = RequestRate(perSecond: 2_000, burst: 4_000),
    guessRate: RequestRate = RequestRate(perSecond: 1, burst: 20),
    streamsAtOnce: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2),
    maxClockAhead: Duration = .seconds(86_400), metricsToken: String? = nil,
    forwarding: ForwardingConfiguration? = nil
  ) {
    self.forwarding = forwarding
    self.host = host
    self.port = port
    self.tls = tls
    self.trustedProxies = trustedProxies
    self.limits = limits
    self.idleTimeout = idleTimeout
    self.requestTimeout = requestTimeout
    self.openUploads = openUploads
    self.openReads = openReads
    self.clientRate = clientRate
    self.tokenRate = tokenRate
    self.guessRate = guessRate
    self.streamsAtOnce = max(1, streamsAtOnce)
    self.maxClockAhead = max(.zero, maxClockAhead)
    self.metricsToken = metricsToken
  }
}
