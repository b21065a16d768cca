import NavJSON

/// The display and analytics name of a screen, by the wire format's rule.
///
/// Exports and printouts need a short, stable word for a screen whose type NavStore does not
/// know. The rule reads the screen's JSON: a string is its own name; an object with one key (the
/// shape Swift gives an enum case) is named by that key; otherwise its `"name"` or `"type"`
/// string; otherwise `"?"`.
public enum ScreenName {
  /// The name used when the rule finds nothing.
  package static let unknown = "?"

  /// `text` safe for one line of a terminal: control and format characters (a newline in a
  /// screen name from another machine, a right-to-left override) written as escapes (`\n`,
  /// `\t`, `\u{1B}`, `\u{202E}`), and a backslash as `\\`, so output keeps its lines, its
  /// terminal state and its reading order.
  package static func printable(_ text: String) -> String {
    func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
      // Format characters include the bidirectional overrides that make text display as
      // something else; a backslash is escaped so an escape cannot be faked.
      scalar == "\\"
        || [.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
    }
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var printable = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": printable += "\\n"
      case "\t": printable += "\\t"
      case "\r": printable += "\\r"
      case "\\": printable += "\\\\"
      default:
        if needsEscape(scalar) {
          printable += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          printable.unicodeScalars.append(scalar)
        }
      }
    }
    return printable
  }

  /// The name of an untyped screen.
  package static func of(_ screen: JSONValue) -> String {
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

  /// The rule as the JSON parser applies it to an object it checks without building (the
  /// events export reads every screen's name this way).
  static let namer = ObjectNamer(
    watching: ("name", "type"),
    fromOutline: { count, firstKey, name, type in named(memberCount: count, onlyKey: firstKey, name: name, type: type)
    },
    fromValue: { of($0) })

  /// The rule for an object screen, from what it takes: its only key, else its `name` string,
  /// else its `type` string. (The export finds these in a screen's bytes, without building it.)
  static func named(memberCount: Int, onlyKey: String?, name: String?, type: String?) -> String {
    if memberCount == 1, let onlyKey { return onlyKey }
    return name ?? type ?? unknown
  }

  /// What a screen carries besides its name, by the name rule's reading: the value under an
  /// enum case's only key (`{"number":7}` for `{"numberDetail":{"number":7}}`, `7` for
  /// `{"numberDetail":7}`), an object's other members when its `name` or `type` named it, and
  /// `nil` for a screen that is only its name (a string, a case without values). The screen's
  /// name is its route's template; these are the route's parameters apart from it.
  package static func parameters(of screen: JSONValue) -> JSONValue? {
    guard case .object(let members) = screen else { return nil }
    if members.count == 1, let only = members.values.first {
      if case .object(let fields) = only, fields.isEmpty { return nil }
      return only
    }
    var rest = members
    if case .string? = members["name"] {
      rest["name"] = nil
    } else if case .string? = members["type"] {
      rest["type"] = nil
    }
    return rest.isEmpty ? nil : .object(rest)
  }

  /// A screen as a person reads it in a terminal: its name, and what it carries in a Swift-like
  /// form, `numberDetail(number: 3)`, shortened past `width` characters. Screens that carry
  /// nothing print as their name. Control characters are escaped (`printable`).
  package static func compact(_ screen: JSONValue, width: Int = 60) -> String {
    let text: String
    switch screen {
    case .string(let name):
      text = name
    case .object(let members) where members.count == 1:
      let (name, payload) = (members.keys.first ?? unknown, members.values.first ?? .null)
      if case .object(let fields) = payload {
        text = fields.isEmpty ? name : name + "(" + arguments(fields) + ")"
      } else {
        text = name + "(" + payload.canonicalString + ")"
      }
    default:
      text = of(screen) + " " + screen.canonicalString
    }
    let printed = printable(text)
    return printed.count > width ? String(printed.prefix(max(1, width - 1))) + "…" : printed
  }

  /// An enum case's associated values as Swift writes them: the unlabeled ones (`_0`, `_1`, as
  /// Swift encodes them) by position, first, then the labeled ones by name.
  private static func arguments(_ fields: [String: JSONValue]) -> String {
    func position(_ key: String) -> Int? {
      guard key.first == "_", let index = Int(key.dropFirst()), index >= 0, "_\(index)" == key else { return nil }
      return index
    }
    let unlabeled = fields.compactMap { key, value in position(key).map { ($0, value) } }.sorted { $0.0 < $1.0 }
    let labeled = fields.filter { position($0.key) == nil }.sorted { $0.key < $1.key }
    return (unlabeled.map { $0.1.canonicalString } + labeled.map { "\($0.key): \($0.value.canonicalString)" })
      .joined(separator: ", ")
  }

  /// A typed screen in the compact form, through the JSON it encodes to.
  package static func compact<AppScreen: Encodable>(_ screen: AppScreen, width: Int = 60) -> String {
    guard let tree = try? JSONValueEncoder().encode(screen) else { return unknown }
    return compact(tree, width: width)
  }

  /// The name of a typed screen, read from the JSON it encodes to (`"?"` if it cannot encode).
  public static func of<AppScreen: Encodable>(_ screen: AppScreen) -> String {
    // Generic code (a route's name, the visible screen's) reaches here with untyped screens too.
    if let json = screen as? JSONValue { return of(json) }
    guard let tree = try? JSONValueEncoder().encode(screen) else { return unknown }
    return of(tree)
  }
}

extension Route {
  /// The screen's name by the wire format's rule.
  package var screenName: String { ScreenName.of(screen) }
}
