import Foundation
import NavContract
import NavFleet

/// Where and how the collector forwards each app's navigation to an OpenTelemetry endpoint
/// (`navstore serve --forward-otlp`).
package struct ForwardingConfiguration: Sendable {
  /// The OTLP/HTTP logs endpoint the records are posted to (`http://HOST:4318/v1/logs`).
  package var endpoint: URL
  /// Headers every request carries (an API key): never logged.
  package var headers: [(name: String, value: String)]
  /// Whether the records leave out what can hold personal data, as `export --omit-payloads`
  /// does (the user id, the actions, the screens' values).
  package var omitsPayloads: Bool
  /// What `omitsPayloads` keeps all the same (`--keep-payload-fields`).
  package var keptPayloadFields: [[String]]
  /// The apps forwarded (`nil`: every app the store holds).
  package var apps: [AppName]?
  /// The folder holding each app's cursor (what the endpoint has taken) and its spool (a round's
  /// records waiting to be sent).
  package var stateFolder: String
  /// How long to wait, once every app is caught up, before looking for new records.
  package var pollInterval: Duration
  /// The most records in one request.
  package var batchRecords: Int
  /// The most bytes in one request (a single record past it goes alone).
  package var batchBytes: Int
  /// How long one request may take, from connecting to the end of its answer.
  package var requestTimeout: Duration
  /// What to do after each attempt.
  package var retry: RetryPolicy

  /// A configuration: by default, a look every 5 seconds, 512 records or 1 MiB a request, 30
  /// seconds a request, and a backoff from 1 second to a minute (`Retry-After` honoured up to
  /// 5 minutes).
  package init(
    endpoint: URL, headers: [(name: String, value: String)] = [], omitsPayloads: Bool = false,
    keptPayloadFields: [[String]] = [], apps: [AppName]? = nil, stateFolder: String,
    pollInterval: Duration = .seconds(5), batchRecords: Int = 512, batchBytes: Int = 1 << 20,
    requestTimeout: Duration = .seconds(30),
    retry: RetryPolicy = RetryPolicy(
      firstBackoff: .seconds(1), maximumBackoff: .seconds(60), maximumRetryAfter: .seconds(300),
      retriesOtherAnswers: true)
  ) {
    self.endpoint = endpoint
    self.headers = headers
    self.apps = apps
    self.omitsPayloads = omitsPayloads
    self.keptPayloadFields = keptPayloadFields
    self.stateFolder = stateFolder
    self.pollInterval = pollInterval
    self.batchRecords = max(1, batchRecords)
    self.batchBytes = max(1, batchBytes)
    self.requestTimeout = requestTimeout
    self.retry = retry
  }

  /// The endpoint for what `--forward-otlp` gave: a URL whose path ends in `/v1/logs` as it is,
  /// any other a base to which `/v1/logs` is added, as OpenTelemetry's exporters do with a base
  /// endpoint (`https://otlp.example.com/otlp` posts to `/otlp/v1/logs`); `nil` for what is not
  /// an http(s) URL.
  package static func endpoint(_ text: String) -> URL? {
    guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
      scheme == "http" || scheme == "https", components.host?.isEmpty == false
    else { return nil }
    if !components.path.hasSuffix("/v1/logs") {
      components.path =
        (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path)
        + "/v1/logs"
    }
    return components.url
  }
}
