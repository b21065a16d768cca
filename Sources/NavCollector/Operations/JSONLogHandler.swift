import Foundation
import Logging
import NavCore

/// A log handler that writes one JSON object per line to standard error: `time` (RFC 3339, UTC,
/// milliseconds), `level`, `message`, then the metadata's keys (`route`, `status`,
/// `request_id`, `cause`, ...), each a string. What journald, Loki, Elasticsearch and
/// CloudWatch read without a parser of their own: `navstore serve --log-format json`.
package struct JSONLogHandler: LogHandler {
  package var logLevel: Logger.Level
  package var metadata: Logger.Metadata = [:]
  private let label: String
  private let write: @Sendable (String) -> Void

  /// A handler for the logger `label`, at `level` and above.
  package init(label: String, level: Logger.Level = .info) {
    self.init(label: label, level: level) { line in
      FileHandle.standardError.write(Data(line.utf8))
    }
  }

  /// A handler that hands each line (ending in a newline) to `write`.
  init(label: String, level: Logger.Level, write: @escaping @Sendable (String) -> Void) {
    self.label = label
    logLevel = level
    self.write = write
  }

  package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  package func log(event: LogEvent) {
    var object: [String: JSONValue] = [
      "time": .string(Timestamp.now.rfc3339), "level": .string(event.level.rawValue),
      "message": .string(event.message.description), "logger": .string(label),
    ]
    let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
    for (key, value) in merged where object[key] == nil {
      object[key] = Self.json(value)
    }
    write(JSONValue.object(object).canonicalString + "\n")
  }

  private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
    switch value {
    case .string(let text): .string(text)
    case .stringConvertible(let convertible): .string(convertible.description)
    case .array(let values): .array(values.map(json))
    case .dictionary(let values): .object(values.mapValues(json))
    }
  }
}
