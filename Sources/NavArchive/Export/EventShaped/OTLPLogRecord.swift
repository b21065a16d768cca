@_spi(Internals) import NavCore
import NavJSON

/// A moment as an OpenTelemetry log record, one OTLP/HTTP JSON request per line
/// (`ExportLogsServiceRequest`: `resourceLogs`, its resource, one scope, one record), which
/// `POST /v1/logs` takes as it is and the OpenTelemetry Collector's `otlpjsonfile` receiver reads.
///
/// The events are named by OpenTelemetry's semantic conventions where they name one:
/// `session.start` (with `session.previous_id`, the session restored), `session.end`, and
/// `device.app.lifecycle` (`ios.app.state`) for the background and the return. Conventions have
/// no screen view, so a visit of a screen is NavStore's own `navstore.screen.view`, with
/// `app.screen.name`, `app.screen.id` (the screen's path: which screen, where in the app), the
/// visit's id, the screen before it and that visit's time
/// in the foreground, how the user arrived, and the app's action that made the change.
///
/// The resource is what the session ran on (`os.name`, `os.version`, `device.model.identifier`,
/// `service.version`, `app.build_id`); every record carries `session.id`.
package enum OTLPLogRecord {
  /// The name of the navigation event: a visit of a screen began.
  package static let screenViewEvent = "navstore.screen.view"

  /// The request holding `record`, one line of JSON.
  package static func line(_ record: NavigationRecord) -> String {
    let logRecord: [String: JSONValue] = [
      "timeUnixNano": .string(nanoseconds(record.at)),
      "severityNumber": .number(9),
      "severityText": .string("INFO"),
      "eventName": .string(eventName(record.kind)),
      "attributes": attributes(recordAttributes(record)),
    ]
    let scope: JSONValue = .object([
      "scope": .object(["name": .string("navstore")]), "logRecords": .array([.object(logRecord)]),
    ])
    let resourceLogs: JSONValue = .object([
      "resource": .object(["attributes": attributes(resourceAttributes(record.context))]),
      "scopeLogs": .array([scope]),
    ])
    return JSONValue.object(["resourceLogs": .array([resourceLogs])]).canonicalString + "\n"
  }

  /// An attribute's value: OTLP's `AnyValue`.
  enum Value {
    case string(String)
    case integer(Int64)
    case boolean(Bool)

    var json: JSONValue {
      switch self {
      case .string(let text): .object(["stringValue": .string(text)])
      // 64-bit integers are strings in OTLP's JSON, which no reader rounds.
      case .integer(let number): .object(["intValue": .string(String(number))])
      case .boolean(let flag): .object(["boolValue": .bool(flag)])
      }
    }
  }

  static func eventName(_ kind: NavigationRecord.Kind) -> String {
    switch kind {
    case .sessionStart: "session.start"
    case .sessionEnd: "session.end"
    case .screen: screenViewEvent
    case .background, .foreground: "device.app.lifecycle"
    }
  }

  static func recordAttributes(_ record: NavigationRecord) -> [(String, Value?)] {
    var list: [(String, Value?)] = [
      ("session.id", .string(record.session.rawValue)), ("navstore.seq", .integer(Int64(record.seq))),
      ("navstore.journey.id", .string(record.journey)),
      ("user.id", record.context?.userID.map(Value.string)),
    ]
    if record.kind == .sessionStart {
      list.append(("session.previous_id", record.restoredFrom.map { .string($0.rawValue) }))
    } else {
      list += [
        ("app.screen.name", record.screen.map { .string($0.name) }),
        ("navstore.screen.path", record.screen.map { .string($0.path) }),
        ("navstore.visit.duration_ms", record.visitMilliseconds.map(Value.integer)),
      ]
    }
    switch record.kind {
    case .background: list.append(("ios.app.state", .string("background")))
    case .foreground: list.append(("ios.app.state", .string("foreground")))
    default: break
    }
    if let visit = record.visit {
      list += [
        ("app.screen.id", record.screen.map { .string($0.path) }),
        ("navstore.visit.id", .string(visit.id)),
        ("navstore.previous_screen.name", visit.previous.map { .string($0.name) }),
        ("navstore.previous_screen.path", visit.previous.map { .string($0.path) }),
        ("navstore.previous_screen.duration_ms", visit.previousMilliseconds.map(Value.integer)),
        ("navstore.arrival", .string(visit.arrival.kind.rawValue)),
        ("navstore.direction", .string(visit.arrival.direction)),
        ("navstore.origin", .string(visit.origin.rawValue)),
        ("navstore.presentation", visit.presentation.map(Value.string)),
        ("navstore.tab", visit.placement.tab.map { .integer(Int64($0)) }),
        ("navstore.tab_screen", visit.placement.tabScreen.map(Value.string)),
        ("navstore.cause.action", visit.causeAction.map(Value.string)),
        ("navstore.cause", visit.cause.map(Value.string)),
        ("navstore.screen.params", visit.parameters.map(Value.string)),
        ("navstore.restored", .boolean(visit.restored)),
      ]
    }
    return list
  }

  static func resourceAttributes(_ context: SessionContext?) -> [(String, Value?)] {
    [
      ("service.version", context?.appVersion.map(Value.string)),
      ("app.build_id", context?.appBuild.map(Value.string)),
      ("os.name", context?.osName.map(Value.string)),
      ("os.version", context?.osVersion.map(Value.string)),
      ("device.model.identifier", context?.deviceModel.map(Value.string)),
      ("navstore.locale", context?.locale.map(Value.string)),
      ("navstore.time_zone", context?.timeZone.map(Value.string)),
    ]
  }

  /// The attributes with a value, in the order given.
  static func attributes(_ list: [(String, Value?)]) -> JSONValue {
    .array(
      list.compactMap { key, value in
        value.map { JSONValue.object(["key": .string(key), "value": $0.json]) }
      })
  }

  /// Nanoseconds since 1970, as OTLP's JSON writes a `fixed64`: a string of digits. A time before
  /// 1970 is 0, and one past what a `fixed64` holds (the year 2554) is held there: only a clock
  /// set by hand gives either.
  static func nanoseconds(_ time: Timestamp) -> String {
    let milliseconds = min(max(0, time.millisecondsSince1970), Int64(UInt64.max / 1_000_000))
    return milliseconds == 0 ? "0" : String(milliseconds) + "000000"
  }
}
