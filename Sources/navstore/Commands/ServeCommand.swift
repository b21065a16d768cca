import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NavCollector
import NavPersistence

/// `navstore serve`: the collector, over HTTP, on a store.
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Run the collector: devices upload their sessions, support and analysts read them.",
    discussion: """
      Serves the store named by --db over HTTP, as docs/spec/collector.md describes, and prints \
      'listening on http://HOST:PORT' once it does. Every request under /v1/ needs a token \
      ('navstore token create'). SIGINT or SIGTERM stops it cleanly: requests under way \
      finish, and nothing acknowledged is lost.

      Examples:
        navstore token create --app shop --role ingest --db collector.sqlite > device.token
        navstore serve --db collector.sqlite
        navstore serve --db collector.sqlite --listen 0.0.0.0:8740 --idle-timeout 60
      """)

  @OptionGroup var location: StoreLocation

  @Option(help: "The address and port to listen on (port 0: one the system picks).")
  var listen = "127.0.0.1:8740"

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

  @Option(help: "The most requests served at once; past it, 503 with Retry-After.")
  var maxOpenRequests = 64

  @Option(help: "Each token's sustained requests per second; past it and its burst, 429 with Retry-After.")
  var rate = 50

  @Option(help: "How many requests a token may send at once above its rate.")
  var burst = 100

  func validate() throws {
    guard address != nil else { throw ValidationError("--listen: give HOST:PORT, like 127.0.0.1:8740") }
    for (name, value) in [
      ("--max-line-bytes", maxLineBytes), ("--max-request-lines", maxRequestLines),
      ("--max-request-bytes", maxRequestBytes), ("--idle-timeout", idleTimeout),
      ("--request-timeout", requestTimeout), ("--max-open-requests", maxOpenRequests), ("--rate", rate),
      ("--burst", burst),
    ] where value < 1 {
      throw ValidationError("\(name) must be at least 1, not \(value)")
    }
  }

  /// `--listen` taken apart.
  private var address: (host: String, port: Int)? {
    guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
      (0...65_535).contains(port), colon > listen.startIndex
    else { return nil }
    return (String(listen[..<colon]), port)
  }

  func run() async throws {
    guard let address else { throw CLIError("--listen: give HOST:PORT, like 127.0.0.1:8740") }
    let store = try StoreOption.open(path: location.resolvedPath, forWriting: true)
    var logger = Logger(label: "navstore.collector")
    logger.logLevel = .info
    let configuration = CollectorConfiguration(
      host: address.host, port: address.port,
      limits: UploadLimits(lineBytes: maxLineBytes, requestLines: maxRequestLines, requestBytes: maxRequestBytes),
      idleTimeout: .seconds(idleTimeout), requestTimeout: .seconds(requestTimeout),
      maximumOpenRequests: maxOpenRequests, requestsPerSecond: Double(rate),
      burst: burst)
    let app = Collector.application(store: store, configuration: configuration, logger: logger) { url in
      print("listening on \(url)")
      fflush(nil)  // a script waits for this line
    }
    do {
      try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    } catch {
      throw CLIError("the collector stopped: \(error)")
    }
  }
}
