import ArgumentParser
import Foundation
import Hummingbird
import Logging
@_spi(Internals) import NavArchive
import NavCollector
import NavContract
import NavFleet
import NavPersistence
import ServiceLifecycle

/// `navstore serve`: the collector, over HTTP, on a store.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Run the collector: devices upload their sessions, support and analysts read them.",
    discussion: """
      Serves the store named by --db over HTTP (HTTPS with --tls-certificate and --tls-key), \
      as docs/spec/collector.md describes, and prints 'listening on http://HOST:PORT' once it \
      does. Every request under /v1/ needs a token ('navstore token create'). SIGINT or \
      SIGTERM stops it cleanly: requests under way finish, for --drain-timeout seconds at \
      most, and nothing acknowledged is lost.

      Examples:
        navstore token create --app shop --role ingest --db collector.sqlite > device.token
        navstore serve --db collector.sqlite
        navstore serve --db collector.sqlite --listen 0.0.0.0:8740 --log-format json
        navstore serve --db collector.sqlite --listen [::1]:8740 --trusted-proxy ::1
        navstore serve --db postgres://navstore@db.internal:5432/fleet --db-connections 32
        navstore serve --db postgres://navstore@db-primary/fleet --read-db postgres://navstore@db-replica/fleet
        navstore serve --db collector.sqlite --forward-otlp http://otel-collector:4318
        navstore serve --db collector.sqlite --listen 0.0.0.0:8443 \\
          --tls-certificate /etc/navstore/cert.pem --tls-key /etc/navstore/key.pem
      """)

  @OptionGroup var location: StoreLocation

  @OptionGroup var pool: PostgresPoolOption

  @Option(
    name: .customLong("read-db"),
    help: "With --db postgres://...: a streaming replica of it, for the read endpoints (postgres://...).")
  var readDatabase: String?

  @Option(help: "The address and port to listen on: HOST:PORT, or [IPv6]:PORT (port 0: one the system picks).")
  var listen = "127.0.0.1:8740"

  @Option(help: "The certificate chain (PEM) to serve HTTPS with; needs --tls-key.")
  var tlsCertificate: String?

  @Option(help: "The certificate's private key (PEM); needs --tls-certificate.")
  var tlsKey: String?

  @Option(
    help: ArgumentHelp(
      "A proxy whose X-Forwarded-For names the client: an address or a network (10.0.0.0/8); repeat for more.",
      valueName: "address-or-network"))
  var trustedProxy: [String] = []

  @Option(help: "The longest line of an upload, in bytes (after decompression).")
  var maxLineBytes = UploadLimits.contract.lineBytes

  @Option(help: "The most lines in one upload.")
  var maxRequestLines = UploadLimits.contract.requestLines

  @Option(help: "The most bytes in one upload (after decompression).")
  var maxRequestBytes = UploadLimits.contract.requestBytes

  @Option(help: "Seconds a connection may stay silent before it is closed.")
  var idleTimeout = 30

  @Option(
    help: ArgumentHelp(
      "Seconds an upload's body may take to arrive (past it, 408), and a client may take to read each chunk of an answer."
    ))
  var requestTimeout = 60

  @Option(help: "Seconds SIGINT or SIGTERM waits for requests under way before the process ends regardless.")
  var drainTimeout = 30

  @Option(
    help: "The most uploads served at once; past it, 503 with Retry-After. The probes and metrics are never counted.")
  var maxOpenUploads = CollectorConfiguration().openUploads.total

  @Option(help: "The most reads (every /v1/ endpoint but uploads) served at once; past it, 503 with Retry-After.")
  var maxOpenReads = CollectorConfiguration().openReads.total

  @Option(
    help:
      "The most uploads, and the most reads, one client (a token from one address) may have under way; past it, 429.")
  var maxOpenPerClient = CollectorConfiguration().openUploads.perClient

  @Option(
    help:
      "The most uploads, and the most reads, one app may have under way (default: three quarters of each pool); past it, 503."
  )
  var maxOpenPerApp: Int?

  @Option(help: ArgumentHelp("Earlier name of --max-open-uploads.", visibility: .hidden))
  var maxOpenRequests: Int?

  @Option(
    help:
      "Each client's sustained requests per second (a token from one address); past it and its burst, 429."
  )
  var rate = Int(CollectorConfiguration().clientRate.perSecond)

  @Option(help: "How many requests a client may send at once above its rate.")
  var burst = CollectorConfiguration().clientRate.burst

  @Option(
    help:
      "Each token's sustained requests per second, all its devices together; past it and twice as many at once, 429.")
  var tokenRate = Int(CollectorConfiguration().tokenRate.perSecond)

  @Option(
    help:
      "How many tokens that are none (wrong, unknown, revoked) a client address may present at once; past it, one a second, and its requests are 429 meanwhile."
  )
  var wrongTokens = CollectorConfiguration().guessRate.burst

  @Option(
    help:
      "Seconds ahead of this collector's clock an uploaded line may be dated; a later one is refused (from-the-future)."
  )
  var maxClockAhead = Int(CollectorConfiguration().maxClockAhead.components.seconds)

  @Option(
    help: ArgumentHelp(
      "A file holding the bearer token /metrics asks for (without it, /metrics needs none: keep it off the internet).",
      valueName: "file"))
  var metricsTokenFile: String?

  @Option(
    name: .customLong("forward-otlp"),
    help: ArgumentHelp(
      "Forward each app's navigation, as it arrives, to this OTLP/HTTP endpoint (http://HOST:4318, or the full /v1/logs URL), as 'export --format otlp' writes it.",
      valueName: "url"))
  var forwardOTLP: String?

  @Flag(
    name: .customLong("forward-omit-payloads"),
    help:
      "With --forward-otlp: leave out what can hold personal data (the user id, the app's actions, the screens' values), as 'export --omit-payloads' does."
  )
  var forwardOmitPayloads = false

  @Option(
    name: .customLong("forward-keep-payload-fields"),
    help: ArgumentHelp(
      "With --forward-omit-payloads: keep these fields all the same, as 'export --keep-payload-fields' does.",
      valueName: "paths"))
  var forwardKeepPayloadFields: [String] = []

  @Option(
    name: .customLong("forward-app"),
    help: ArgumentHelp(
      "With --forward-otlp: forward only this app (repeat for more; default: every app).", valueName: "name"))
  var forwardApps: [String] = []

  @Option(
    help: ArgumentHelp(
      "With --forward-otlp: the folder of each app's forwarding cursor (default: beside a SQLite --db, NAME.forward; required with PostgreSQL).",
      valueName: "folder"))
  var forwardState: String?

  @Option(
    help: ArgumentHelp(
      "With --forward-otlp: a file of headers every request carries, one 'Name: value' a line (an API key), kept out of the logs.",
      valueName: "file"))
  var forwardHeadersFile: String?

  @Option(help: "The log's format: text (one line of key=value pairs) or json (one object per line).")
  var logFormat: LogFormat = .text

  @Option(help: "The least severe log lines written: trace, debug, info, notice, warning, error or critical.")
  var logLevel: LogLevel = .info

  enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  /// swift-log's levels, by their names.
  enum LogLevel: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
  }

  func validate() throws {
    if let readDatabase {
      guard PostgresAddress.isAddress(readDatabase), PostgresAddress.isAddress(location.resolvedPath) else {
        throw ValidationError("--read-db: give a replica's postgres:// address, with --db the primary's")
      }
    }
    guard Self.address(listen) != nil else {
      throw ValidationError("--listen: give HOST:PORT, like 127.0.0.1:8740, or [IPv6]:PORT, like [::1]:8740")
    }
    guard (tlsCertificate == nil) == (tlsKey == nil) else {
      throw ValidationError("--tls-certificate and --tls-key go together: give both, or neither")
    }
    for proxy in trustedProxy where IPNetwork(proxy) == nil {
      throw ValidationError("--trusted-proxy: '\(proxy)' is not an address or a network (like 10.0.0.0/8 or ::1)")
    }
    for (name, value) in [
      ("--max-line-bytes", maxLineBytes), ("--max-request-lines", maxRequestLines),
      ("--max-request-bytes", maxRequestBytes), ("--idle-timeout", idleTimeout),
      ("--request-timeout", requestTimeout), ("--drain-timeout", drainTimeout), ("--max-open-uploads", maxOpenUploads),
      ("--max-open-reads", maxOpenReads), ("--max-open-per-client", maxOpenPerClient),
      ("--max-open-requests", maxOpenRequests ?? 1), ("--max-open-per-app", maxOpenPerApp ?? 1), ("--rate", rate),
      ("--burst", burst), ("--token-rate", tokenRate),
      ("--wrong-tokens", wrongTokens),
    ] where value < 1 {
      throw ValidationError("\(name) must be at least 1, not \(value)")
    }
    if let forwardOTLP {
      guard ForwardingConfiguration.endpoint(forwardOTLP) != nil else {
        throw ValidationError("--forward-otlp: give an http:// or https:// URL, like http://127.0.0.1:4318")
      }
      guard forwardState != nil || !PostgresAddress.isAddress(location.resolvedPath) else {
        throw ValidationError("--forward-otlp on PostgreSQL needs --forward-state FOLDER, for the forwarding cursors")
      }
      if !forwardKeepPayloadFields.isEmpty, !forwardOmitPayloads {
        throw ValidationError("--forward-keep-payload-fields keeps fields of what --forward-omit-payloads leaves out")
      }
      do {
        _ = try PayloadRedaction.paths(forwardKeepPayloadFields)
      } catch {
        throw ValidationError("--forward-keep-payload-fields: \(error)")
      }
      for name in forwardApps {
        do {
          _ = try AppName(name)
        } catch {
          throw ValidationError("--forward-app: \(error)")
        }
      }
    } else if forwardState != nil || forwardHeadersFile != nil || !forwardApps.isEmpty || forwardOmitPayloads
      || !forwardKeepPayloadFields.isEmpty
    {
      throw ValidationError("the --forward- options go with --forward-otlp")
    }
    guard (0...Self.maximumClockAhead).contains(maxClockAhead) else {
      throw ValidationError(
        "--max-clock-ahead must be 0 to \(Self.maximumClockAhead) seconds (ten years), not \(maxClockAhead)")
    }
  }

  /// `--listen` taken apart: `HOST:PORT`, or `[IPv6]:PORT` (the address without its brackets).
  static func address(_ listen: String) -> (host: String, port: Int)? {
    guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
      (0...65_535).contains(port), colon > listen.startIndex
    else { return nil }
    var host = listen[..<colon]
    if host.hasPrefix("[") {
      guard host.hasSuffix("]"), host.count > 2 else { return nil }
      host = host.dropFirst().dropLast()
      guard IPNetwork.bytes(of: String(host))?.count == 16 else { return nil }
    } else if host.contains(":") {
      // An IPv6 address must be in brackets: otherwise its last group would read as the port.
      return nil
    }
    return (String(host), port)
  }

  func run() async throws {
    MallocSettings.apply(arenas: 2, mappedFrom: 256 * 1024, environment: ProcessInfo.processInfo.environment)
    let logger = makeLogger()
    try await location.withBackend(readDatabase: readDatabase, connections: pool.connections, logger: logger) {
      backend in try await serve(backend, logger: logger)
    }
  }

  /// The most `--max-clock-ahead` takes: ten years, far past any clock, and far from overflowing
  /// a time in milliseconds.
  static let maximumClockAhead = 10 * 366 * 86_400

  /// The token in `--metrics-token-file`, without the line break that ends it; `nil` without
  /// the option. An empty or unreadable file stops `serve`: a metrics port thought closed must
  /// not be open.
  private func metricsToken() throws -> String? {
    guard let metricsTokenFile else { return nil }
    guard let text = try? String(contentsOfFile: metricsTokenFile, encoding: .utf8) else {
      throw CLIError("--metrics-token-file: cannot read '\(metricsTokenFile)'")
    }
    let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
      throw CLIError("--metrics-token-file: '\(metricsTokenFile)' holds no token (one line, no spaces)")
    }
    return token
  }

  /// Where `--forward-otlp` forwards to, with its headers and its state; `nil` without it. An
  /// unreadable headers file, or a line of it that is no header, stops `serve`.
  private func forwarding() throws -> ForwardingConfiguration? {
    guard let forwardOTLP, let endpoint = ForwardingConfiguration.endpoint(forwardOTLP) else { return nil }
    var headers: [(name: String, value: String)] = []
    if let forwardHeadersFile {
      guard let text = try? String(contentsOfFile: forwardHeadersFile, encoding: .utf8) else {
        throw CLIError("--forward-headers-file: cannot read '\(forwardHeadersFile)'")
      }
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { continue }
        guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
          !line[..<colon].contains(where: { $0.isWhitespace })
        else {
          // The line itself may be a secret: only its number is said.
          throw CLIError("--forward-headers-file: line \(number + 1) of '\(forwardHeadersFile)' is not 'Name: value'")
        }
        headers.append(
          (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
      }
    }
    let state = forwardState ?? ((location.resolvedPath as NSString).deletingPathExtension + ".forward")
    let apps = forwardApps.isEmpty ? nil : forwardApps.compactMap { try? AppName($0) }
    return ForwardingConfiguration(
      endpoint: endpoint, headers: headers, omitsPayloads: forwardOmitPayloads,
      keptPayloadFields: (try? PayloadRedaction.paths(forwardKeepPayloadFields)) ?? [], apps: apps, stateFolder: state)
  }

  /// Serves `backend` until SIGINT or SIGTERM, then drains.
  private func serve(_ backend: any FleetBackend, logger: Logger) async throws {
    guard let address = Self.address(listen) else { throw CLIError("--listen: give HOST:PORT, like 127.0.0.1:8740") }
    let uploads = maxOpenRequests ?? maxOpenUploads
    let configuration = CollectorConfiguration(
      host: address.host, port: address.port,
      tls: tlsCertificate.flatMap { certificate in
        tlsKey.map { TLSFiles(certificateChain: certificate, privateKey: $0) }
      },
      trustedProxies: trustedProxy.compactMap(IPNetwork.init),
      limits: UploadLimits(lineBytes: maxLineBytes, requestLines: maxRequestLines, requestBytes: maxRequestBytes),
      idleTimeout: .seconds(idleTimeout), requestTimeout: .seconds(requestTimeout),
      openUploads: OpenRequestLimit(total: uploads, perClient: maxOpenPerClient, perApp: maxOpenPerApp),
      openReads: OpenRequestLimit(total: maxOpenReads, perClient: maxOpenPerClient, perApp: maxOpenPerApp),
      clientRate: RequestRate(perSecond: Double(rate), burst: burst),
      tokenRate: RequestRate(perSecond: Double(tokenRate), burst: tokenRate * 2),
      guessRate: RequestRate(perSecond: 1, burst: wrongTokens), maxClockAhead: .seconds(maxClockAhead),
      metricsToken: try metricsToken(), forwarding: try forwarding())
    let app: any ApplicationProtocol
    do {
      app = try Collector.application(backend: backend, configuration: configuration, logger: logger) { url in
        print("listening on \(url)")
        fflush(nil)  // a script waits for this line
      }
    } catch {
      throw CLIError("cannot serve HTTPS: \(error)")
    }
    // Requests still under way when the drain time is over are cancelled; whatever still runs a
    // few seconds later does not keep the process alive (nothing unacknowledged was promised).
    let backstop = ShutdownBackstop(limit: .seconds(drainTimeout + 5), logger: logger)
    var group = ServiceGroupConfiguration(
      services: [.init(service: app), .init(service: backstop)], gracefulShutdownSignals: [.sigterm, .sigint],
      logger: logger)
    group.maximumGracefulShutdownDuration = .seconds(drainTimeout)
    do {
      try await ServiceGroup(configuration: group).run()
    } catch {
      throw CLIError("the collector stopped: \(Self.wording(error, listen: listen))")
    }
  }

  /// The logger every line of the collector goes through, in the chosen format and level.
  private func makeLogger() -> Logger {
    let level = logLevel.level
    switch logFormat {
    case .json:
      return Logger(label: "navstore.collector") { label in JSONLogHandler(label: label, level: level) }
    case .text:
      var logger = Logger(label: "navstore.collector") { label in StreamLogHandler.standardError(label: label) }
      logger.logLevel = level
      return logger
    }
  }

  /// A failure to serve, in a sentence: the address that cannot be bound, or the error.
  static func wording(_ error: any Error, listen: String) -> String {
    let text = "\(error)"
    if text.contains("Address already in use") { return "\(listen) is already in use (another collector?)" }
    if text.contains("Cannot assign requested address") || text.contains("Address not available") {
      return "\(listen) is not an address of this machine"
    }
    if text.contains("Permission denied") {
      return "\(listen) needs privileges this process does not have (a port under 1024?)"
    }
    return text
  }
}

/// Ends the process once a stop has taken too long: when the service group begins to shut
/// down (SIGINT or SIGTERM), it starts a timer of the drain time and a margin, and exits with
/// status 1 if the process is still there when it fires. A request that ignores its
/// cancellation cannot keep a stopping collector alive. It is the last service of the group,
/// so the first told to stop, and returns at once so the others' shutdown begins.
struct ShutdownBackstop: Service {
  let limit: Duration
  let logger: Logger

  func run() async throws {
    try? await gracefulShutdown()
    let (limit, logger) = (limit, logger)
    Task.detached {
      try? await Task.sleep(for: limit)
      logger.critical("stopping took longer than the drain time allows; ending the process")
      exit(1)
    }
  }
}
