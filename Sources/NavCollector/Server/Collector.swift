import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import NavContract
import NavCore
import NavFleet
import NavPersistence

/// The collector: devices upload their sessions to it, support and analysts read a fleet's
/// sessions from it. `docs/spec/collector.md` is its contract.
package enum Collector {
  /// The collector's router over `fleet` (every app's sessions in store files, and the tokens
  /// that reach them). `logger` gets what is not one request's: a store file found removed, say.
  package static func router(
    fleet: SQLiteFleet, configuration: CollectorConfiguration = CollectorConfiguration(),
    logger: Logger = Logger(label: "navstore.collector")
  ) -> Router<CollectorContext> {
    router(backend: SQLiteBackend(fleet: fleet, logger: logger), configuration: configuration, logger: logger)
  }

  /// The collector's router over `backend`, whichever engine keeps the fleet's store.
  package static func router(
    backend: any FleetBackend, configuration: CollectorConfiguration = CollectorConfiguration(),
    logger: Logger = Logger(label: "navstore.collector")
  ) -> Router<CollectorContext> {
    router(backend: backend, configuration: configuration, metrics: CollectorMetrics(), logger: logger)
  }

  /// The router, counting in `metrics`.
  static func router(
    backend: any FleetBackend, configuration: CollectorConfiguration, metrics: CollectorMetrics, logger: Logger
  ) -> Router<CollectorContext> {
    let limits = configuration.limits
    let router = Router(context: CollectorContext.self)
    // Outermost: every answer in the contract's shape, with its request id, log line and metrics.
    router.add(
      middleware: AnsweringMiddleware(
        clientAddress: ClientAddress(trustedProxies: configuration.trustedProxies), metrics: metrics))
    // The pools of requests under way (the probes and metrics are never counted), then the
    // token, then each client's share and rate.
    router.add(
      middleware: AdmissionMiddleware(
        uploads: configuration.openUploads, reads: configuration.openReads, metrics: metrics))
    let tokens = TokenCheck(backend: backend)
    let guesses = GuessLimit(rate: configuration.guessRate, metrics: metrics)
    router.add(middleware: TokenAuthenticator(tokens: tokens, guesses: guesses))
    router.add(
      middleware: ClientShareMiddleware(
        uploads: configuration.openUploads, reads: configuration.openReads, metrics: metrics))
    router.add(
      middleware: RateLimitMiddleware(
        client: configuration.clientRate, token: configuration.tokenRate, metrics: metrics))
    router.get("healthz") { _, _ in JSONResponse.ok(["status": "serving"]) }
    router.get("readyz") { _, _ -> Response in
      let problems = await backend.problems()
      guard problems.isEmpty else {
        throw CollectorError.unavailable(
          "The store cannot serve (\(problems.count) problem\(problems.count == 1 ? "" : "s"); the log names them)",
          cause: problems.joined(separator: "; "))
      }
      return JSONResponse.ok(["status": "ready"])
    }
    let metricsToken = configuration.metricsToken.map { Array($0.utf8) }
    router.get("metrics") { request, _ in
      if let metricsToken {
        let presented = TokenAuthenticator.bearer(request.headers[.authorization]).map { Array($0.utf8) } ?? []
        guard PresentedToken.constantTimeEqual(presented, metricsToken) else { throw CollectorError.unauthorized }
      }
      metrics.note(ProcessFigures.now())
      metrics.note(await backend.figures())
      return Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
    }
    let v1 = router.group("v1")
    v1.get("limits") { request, _ in
      _ = try QueryParameters(request, allowed: [])
      return try JSONResponse.ok(contract: limits)
    }
    let events = EventsEndpoint(
      backend: backend, limits: limits, metrics: metrics, bodyTimeout: configuration.requestTimeout,
      maxClockAhead: configuration.maxClockAhead)
    v1.post("events") { request, context in try await events.handle(request, context: context) }
    let sessions = SessionsEndpoint(backend: backend)
    v1.get("sessions") { request, context in try await sessions.handle(request, context: context) }
    let turns = StreamTurns(atOnce: configuration.streamsAtOnce)
    let reads = ReadEndpoints(backend: backend, writeTimeout: configuration.requestTimeout, turns: turns)
    v1.get("sessions/:id/head") { request, context in try await reads.head(request, context: context) }
    let heads = HeadsEndpoint(backend: backend, bodyTimeout: configuration.requestTimeout)
    v1.post("heads") { request, context in try await heads.handle(request, context: context) }
    v1.get("sessions/:id/history") { request, context in try await reads.history(request, context: context) }
    v1.get("sessions/:id/bundle") { request, context in try await reads.bundle(request, context: context) }
    v1.get("sessions/:id/state") { request, context in try await reads.state(request, context: context) }
    v1.get("sessions/:id/report") { request, context in try await reads.report(request, context: context) }
    let export = ExportEndpoint(backend: backend, writeTimeout: configuration.requestTimeout, turns: turns)
    v1.get("export/:table") { request, context in try await export.handle(request, context: context) }
    ConsoleEndpoints(
      backend: backend, tokens: tokens, secure: configuration.tls != nil,
      clientAddress: ClientAddress(trustedProxies: configuration.trustedProxies), timeout: configuration.requestTimeout,
      turns: turns,
      rejections: metrics.rejections, guesses: guesses
    ).register(on: router)
    return router
  }

  /// The collector as a Hummingbird application listening as `configuration` says (HTTPS when
  /// it names a certificate); `onReady` gets the address it listens on, once it does. Throws
  /// when the certificate or its key cannot be read.
  package static func application(
    fleet: SQLiteFleet, configuration: CollectorConfiguration, logger: Logger,
    onReady: @escaping @Sendable (String) async -> Void = { _ in }
  ) throws -> some ApplicationProtocol {
    try application(
      backend: SQLiteBackend(fleet: fleet, logger: logger), configuration: configuration, logger: logger,
      onReady: onReady)
  }

  /// The collector over `backend` as a Hummingbird application (see `application(fleet:...)`).
  package static func application(
    backend: any FleetBackend, configuration: CollectorConfiguration, logger: Logger,
    onReady: @escaping @Sendable (String) async -> Void = { _ in }
  ) throws -> some ApplicationProtocol {
    let idle = TimeAmount.nanoseconds(Int64(configuration.idleTimeout.inSeconds * 1_000_000_000))
    let http = HTTP1Channel.Configuration(idleTimeout: idle)
    let scheme = configuration.tls == nil ? "http" : "https"
    let server: HTTPServerBuilder
    if let files = configuration.tls {
      let tls = try serverTLS(files)
      server = HTTPServerBuilder { responder in
        try TLSChannel(
          EdgeChannel(base: HTTP1Channel(responder: responder, configuration: http)), tlsConfiguration: tls)
      }
    } else {
      server = HTTPServerBuilder { responder in
        EdgeChannel(base: HTTP1Channel(responder: responder, configuration: http))
      }
    }
    // An IPv6 address is written in brackets in a URL.
    let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    let metrics = CollectorMetrics()
    // The forwarder, when there is one, runs beside the server and stops with it.
    let forwarder = configuration.forwarding.map {
      OTLPForwarder(backend: backend, configuration: $0, logger: logger, metrics: metrics)
    }
    return Application(
      router: router(backend: backend, configuration: configuration, metrics: metrics, logger: logger),
      server: server,
      configuration: ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port), serverName: "navstore-collector"),
      services: forwarder.map { [$0] } ?? [],
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        await onReady("\(scheme)://\(host):\(port)")
      },
      logger: logger)
  }

  /// The TLS configuration of a server presenting `files`.
  static func serverTLS(_ files: TLSFiles) throws -> TLSConfiguration {
    let chain: [NIOSSLCertificate]
    let key: NIOSSLPrivateKey
    do {
      chain = try NIOSSLCertificate.fromPEMFile(files.certificateChain)
    } catch {
      throw TLSFilesError(file: files.certificateChain, what: "a PEM certificate chain", underlying: "\(error)")
    }
    do {
      key = try NIOSSLPrivateKey(file: files.privateKey, format: .pem)
    } catch {
      throw TLSFilesError(file: files.privateKey, what: "a PEM private key", underlying: "\(error)")
    }
    guard !chain.isEmpty else {
      throw TLSFilesError(
        file: files.certificateChain, what: "a PEM certificate chain", underlying: "no certificate in it")
    }
    return TLSConfiguration.makeServerConfiguration(
      certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
  }
}

/// A certificate or key file that cannot be used to serve HTTPS.
package struct TLSFilesError: Error, CustomStringConvertible {
  /// The file.
  package let file: String
  /// What it should be.
  package let what: String
  /// What reading it said.
  package let underlying: String

  package var description: String { "'\(file)' is not \(what) that can be read (\(underlying))" }
}

/// A 200 with a JSON body, as the contract writes them (canonical JSON and a newline).
enum JSONResponse {
  static func ok(_ value: JSONValue) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: value.canonicalString + "\n")))
  }

  /// One of the contract's types.
  static func ok(contract value: some Encodable) throws -> Response {
    ok(body: try ContractJSON.encode(value))
  }

  /// A body written already (canonical JSON and a newline).
  static func ok(body: [UInt8]) -> Response {
    Response(
      status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}
