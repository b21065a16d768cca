@_spi(Internals) import NavCore
import NavJSON

/// A moment as a call of Segment's HTTP tracking API: a `screen` call for each visit of a
/// screen, `track` calls for the app's lifecycle (named as Segment's mobile spec names them) and
/// the session's end.
///
/// Each call stands alone, with what Segment requires (`type`, `anonymousId`, and `name` or
/// `event`) and a `messageId` that stays the same in every export, so a call sent twice is one to
/// Segment. `anonymousId` is the journey (the first session of a chain of restores): a user's
/// navigation across a relaunch is one anonymous user; `userId` is the session's user id, when it
/// gave one and payloads are kept.
package enum SegmentCall {
  /// The most bytes Segment takes in one call.
  package static let maximumBytes = 32 * 1024

  /// The call of `record`, one line of JSON.
  package static func line(_ record: NavigationRecord) -> String {
    var call = object(record)
    var text = JSONValue.object(call).canonicalString
    // The action and the screen's parameters are the app's own values, of any size: a call
    // Segment would refuse goes without them, and says so.
    if text.utf8.count > maximumBytes, case .object(var properties)? = call["properties"] {
      properties["cause"] = nil
      properties["screen_params"] = nil
      properties["navstore_trimmed"] = .bool(true)
      call["properties"] = .object(properties)
      text = JSONValue.object(call).canonicalString
      // Names are the app's too, and a screen that is a long string is its own name: cut to a
      // length no call passes the limit with.
      if text.utf8.count > maximumBytes {
        for (key, value) in properties { if case .string(let long) = value { properties[key] = cut(long) } }
        call["properties"] = .object(properties)
        if case .string(let name)? = call["name"] { call["name"] = cut(name) }
        text = JSONValue.object(call).canonicalString
      }
    }
    return text + "\n"
  }

  private static func object(_ record: NavigationRecord) -> [String: JSONValue] {
    var call: [String: JSONValue] = [
      "anonymousId": .string(record.journey),
      "timestamp": .string(record.at.rfc3339),
      "context": .object(context(record.context)),
    ]
    if let user = record.context?.userID { call["userId"] = .string(user) }
    var properties: [String: JSONValue] = [
      "session_id": .string(record.session.rawValue), "seq": .number(Double(record.seq)),
      "journey_id": .string(record.journey),
    ]
    let id = "\(record.session.rawValue)#\(record.seq)"
    func track(_ event: String, _ slug: String) {
      call["type"] = .string("track")
      call["event"] = .string(event)
      call["messageId"] = .string("\(id)/\(slug)")
    }
    switch record.kind {
    case .screen:
      call["type"] = .string("screen")
      call["name"] = record.screen.map { .string($0.name) }
      call["messageId"] = .string(record.visit?.id ?? id)
      if let visit = record.visit { properties.merge(Self.properties(of: visit), uniquingKeysWith: { $1 }) }
    case .sessionStart:
      track("Application Opened", "opened")
      properties["from_background"] = .bool(false)
      if let from = record.restoredFrom { properties["restored_from_session"] = .string(from.rawValue) }
    case .foreground:
      track("Application Opened", "opened")
      properties["from_background"] = .bool(true)
    case .background:
      track("Application Backgrounded", "backgrounded")
    case .sessionEnd:
      track("Session Ended", "ended")
    }
    if record.kind != .sessionStart, let screen = record.screen {
      properties["path"] = .string(screen.path)
      if record.kind != .screen { properties["screen"] = .string(screen.name) }
    }
    if let time = record.visitMilliseconds { properties["duration_ms"] = .number(Double(time)) }
    if let version = record.context?.appVersion { properties["version"] = .string(version) }
    if let build = record.context?.appBuild { properties["build"] = .string(build) }
    call["properties"] = .object(properties)
    return call
  }

  private static func properties(of visit: NavigationRecord.Visit) -> [String: JSONValue] {
    var properties: [String: JSONValue] = [
      "visit_id": .string(visit.id), "arrival": .string(visit.arrival.kind.rawValue),
      "direction": .string(visit.arrival.direction), "origin": .string(visit.origin.rawValue),
      "restored": .bool(visit.restored),
    ]
    properties["previous_screen"] = visit.previous.map { .string($0.name) }
    properties["previous_path"] = visit.previous.map { .string($0.path) }
    properties["previous_duration_ms"] = visit.previousMilliseconds.map { .number(Double($0)) }
    properties["presentation"] = visit.presentation.map(JSONValue.string)
    properties["tab"] = visit.placement.tab.map { .number(Double($0)) }
    properties["tab_screen"] = visit.placement.tabScreen.map(JSONValue.string)
    properties["cause_action"] = visit.causeAction.map(JSONValue.string)
    properties["cause"] = visit.cause.map(json)
    properties["screen_params"] = visit.parameters.map(json)
    return properties
  }

  /// Segment's `context`: the app, the device, the OS, the locale and the time zone, and the
  /// library that made the call.
  private static func context(_ context: SessionContext?) -> [String: JSONValue] {
    var result: [String: JSONValue] = ["library": .object(["name": .string("navstore")])]
    guard let context else { return result }
    func object(_ members: [String: String?]) -> JSONValue? {
      let kept = members.compactMapValues { $0.map(JSONValue.string) }
      return kept.isEmpty ? nil : .object(kept)
    }
    result["app"] = object(["version": context.appVersion, "build": context.appBuild])
    result["device"] = object(["model": context.deviceModel])
    result["os"] = object(["name": context.osName, "version": context.osVersion])
    result["locale"] = context.locale.map(JSONValue.string)
    result["timezone"] = context.timeZone.map(JSONValue.string)
    return result
  }

  /// A string cut to 1,000 characters, ending with `…` when cut.
  private static func cut(_ text: String) -> JSONValue {
    .string(text.count > 1_000 ? String(text.prefix(999)) + "…" : text)
  }

  /// A value kept as canonical JSON, as the JSON it is.
  static func json(_ canonical: String) -> JSONValue {
    (try? JSONParser.parseOwnCanonical(Array(canonical.utf8))) ?? .string(canonical)
  }
}
