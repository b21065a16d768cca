import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NavCore
import NavPersistence

/// The collector: devices upload their sessions to it, support and analysts read a fleet's
/// sessions from it. `docs/spec/collector.md` is its contract.
public enum Collector {
  /// The collector's router over `store` (the default app's; the others' files are beside it).
  public static func router(
    store: SessionStore, configuration: CollectorConfiguration = CollectorConfiguration()
  ) -> Router<CollectorContext> {
    let limits = configuration.limits
    let stores = AppStores(main: store)
    let metrics = CollectorMetrics()
    let router = Router(context: CollectorContext.self)
    // One line per answered request (method, route, status, time): no header, query or body.
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: AdmissionMiddleware(maximumOpen: configuration.maximumOpenRequests, metrics: metrics))
    router.add(middleware: ErrorBodyMiddleware())
    router.add(middleware: TokenAuthenticator(store: store))
    router.add(
      middleware: RateLimitMiddleware(
        perSecond: configuration.requestsPerSecond, burst: configuration.burst, metrics: metrics))
    router.get("healthz") { _, _ in JSONResponse.ok(["status": "serving"]) }
    router.get("readyz") { _, _ -> Response in
      do {
        _ = try await store.apps()
      } catch {
        throw CollectorError.unavailable("The store does not answer (\(error))")
      }
      return JSONResponse.ok(["status": "ready"])
    }
    router.get("metrics") { _, _ in
      Response(
        status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.text())))
    }
    let v1 = router.group("v1")
    v1.get("limits") { _, _ in
      JSONResponse.ok([
        "lineBytes": .number(Double(limits.lineBytes)), "requestLines": .number(Double(limits.requestLines)),
        "requestBytes": .number(Double(limits.requestBytes)),
      ])
    }
    let events = EventsEndpoint(
      stores: stores, limits: limits, metrics: metrics, bodyTimeout: configuration.requestTimeout)
    v1.post("events") { request, context in try await events.handle(request, context: context) }
    let reads = ReadEndpoints(stores: stores, writeTimeout: configuration.requestTimeout)
    v1.get("sessions") { request, context in try await reads.sessions(request, context: context) }
    v1.get("sessions/:id/head") { request, context in try await reads.head(request, context: context) }
    v1.get("sessions/:id/history") { request, context in try await reads.history(request, context: context) }
    v1.get("sessions/:id/state") { request, context in try await reads.state(request, context: context) }
    v1.get("sessions/:id/report") { request, context in try await reads.report(request, context: context) }
    let export = ExportEndpoint(stores: stores, writeTimeout: configuration.requestTimeout)
    v1.get("export/:table") { request, context in try await export.handle(request, context: context) }
    return router
  }

  /// The collector as a Hummingbird application listening as `configuration` says; `onReady`
  /// gets the address it listens on, once it does.
  public static func application(
    store: SessionStore, configuration: CollectorConfiguration, logger: Logger,
    onReady: @escaping @Sendable (String) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let idle = TimeAmount.milliseconds(Int64(configuration.idleTimeout.components.seconds * 1_000))
    return Application(
      router: router(store: store, configuration: configuration),
      server: .http1(configuration: HTTP1Channel.Configuration(idleTimeout: idle)),
      configuration: ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port), serverName: "navstore-collector"),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        await onReady("http://\(configuration.host):\(port)")
      },
      logger: logger)
  }
}

/// Every refusal in the contract's shape, Hummingbird's own included (no route for the method
/// and path is a 404): a JSON body with a code and a sentence.
struct ErrorBodyMiddleware: RouterMiddleware {
  typealias Context = CollectorContext

  func handle(
    _ request: Request, context: CollectorContext, next: (Request, CollectorContext) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as CollectorError {
      throw error
    } catch let error as HTTPError {
      switch error.status {
      case .notFound: throw CollectorError.notFound
      default:
        throw CollectorError(status: error.status, code: "error", message: error.body ?? "The request failed.")
      }
    }
  }
}
