import NavCore

/// A recorded action (an event's `cause`) as the replay met it: its name and its JSON.
public struct RecordedCause: Sendable, Hashable, CustomStringConvertible {
  /// The action's name, its enum cases joined by dots: `mail.threadTapped` for
  /// `{"mail":{"_0":{"threadTapped":{"id":41}}}}`, the JSON Swift's `Codable` writes for
  /// `.mail(.threadTapped(id: 41))`.
  public var name: String
  /// The action's JSON, as recorded (canonical form).
  public var json: String
  /// The JSON itself, for a resolution that reads its fields.
  public var value: JSONValue

  init(_ value: JSONValue) {
    self.value = value
    json = (try? WireFormat.canonicalString(value)) ?? "\(value)"
    // Synthesized Codable writes a case as a one-key object; a case whose one value is another
    // enum (a scoped action) holds it under `_0`, whose own case is the next name.
    var names: [String] = []
    var node = value
    while case .object(let members) = node, members.count == 1, let (key, inner) = members.first {
      names.append(key)
      guard case .object(let values) = inner, values.count == 1, let nested = values["_0"] else { break }
      node = nested
    }
    if names.isEmpty, case .string(let text) = value { names.append(text) }
    name = names.isEmpty ? json : names.joined(separator: ".")
  }

  /// `mail.threadTapped {"mail":{"_0":{"threadTapped":{"id":41}}}}`.
  public var description: String { name == json ? json : "\(name) \(json)" }
}

/// What the replay does with a recorded action that does not decode as today's `Action`.
public enum CauseResolution<Action>: Sendable where Action: Sendable {
  /// Replays this action instead (the recorded one was renamed, or its fields changed).
  case replay(Action)
  /// Replays none: the recorded change is applied as it was recorded, and the replay goes on
  /// (the action was removed, and the test still wants the rest of the session).
  case skip
  /// Stops the replay with `ReplayError.causeDoesNotDecode` (what happens by default).
  case fail
}
