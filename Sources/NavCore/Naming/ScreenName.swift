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
      return of(members: members.lazy.map { ($0.key, $0.value) })
    default:
      return unknown
    }
  }

  /// The name of an object screen from its members: its only key, else its `name` or `type`
  /// string. (The export reads screens as member lists, without building a dictionary.)
  static func of(members: some Collection<(String, JSONValue)>) -> String {
    if members.count == 1, let only = members.first { return only.0 }
    for wanted in ["name", "type"] {
      if let member = members.first(where: { $0.0 == wanted }), case .string(let text) = member.1 { return text }
    }
    return unknown
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

