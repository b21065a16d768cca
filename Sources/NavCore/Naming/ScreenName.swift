/// The display and analytics name of a screen, by the wire format's rule.
///
/// Exports and printouts need a short, stable word for a screen whose type NavStore does not
/// know. The rule reads the screen's JSON: a string is its own name; an object with one key (the
/// shape Swift gives an enum case) is named by that key; otherwise its `"name"` or `"type"`
/// string; otherwise `"?"`.
public enum ScreenName {
  /// The name used when the rule finds nothing.
  public static let unknown = "?"

  /// The name of an untyped screen.
  public static func of(_ screen: JSONValue) -> String {
    switch screen {
    case .string(let string):
      return string
    case .object(let members):
      func string(_ key: String) -> String? {
        if case .string(let text)? = members[key] { text } else { nil }
      }
      return named(memberCount: members.count, onlyKey: members.keys.first, name: string("name"), type: string("type"))
    default:
      return unknown
    }
  }

  /// The rule for an object screen, from what it takes: its only key, else its `name` string,
  /// else its `type` string. (The export finds these in a screen's bytes, without building it.)
  static func named(memberCount: Int, onlyKey: String?, name: String?, type: String?) -> String {
    if memberCount == 1, let onlyKey { return onlyKey }
    return name ?? type ?? unknown
  }

  /// The name of a typed screen, read from the JSON it encodes to (`"?"` if it cannot encode).
  public static func of<Screen: Encodable>(_ screen: Screen) -> String {
    guard let tree = try? JSONValueEncoder().encode(screen) else { return unknown }
    return of(tree)
  }
}

extension Route {
  /// The screen's name by the wire format's rule.
  public var screenName: String { ScreenName.of(screen) }
}

