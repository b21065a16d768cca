import NavCore

/// A typed screen like an app would declare: synthesized `Codable` gives the one-key object
/// shape (`{"numberDetail":{"number":3}}`) the screen-name rule is built around.
enum AppScreen: Codable, Hashable, Sendable {
  case home
  case numbersList
  case numberDetail(number: Int)
  case onboarding(step: Int)
}

/// Decodes wire-format text, failing the test with the decoder's message when it is refused.
func decoded<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
  try WireFormat.decode(type, from: text)
}

/// The canonical text of a value, for comparisons that read like the wire format.
func canonical<T: Encodable>(_ value: T) throws -> String {
  try WireFormat.canonicalString(value)
}

/// A stack of untyped routes from a compact notation, so tests read like the reference's
/// examples: `"R"` root, `"R+"` root with navigation, `"↑a"` push, `"◻a"`/`"◻+a"` sheet without
/// or with navigation, `"▣a"`/`"▣+a"` cover. The screen is the rest of the token.
func stack(_ tokens: String...) -> [AnyRoute] {
  tokens.map(route)
}

func route(_ token: String) -> AnyRoute {
  var rest = Substring(token)
  let marker = rest.removeFirst()
  let navigation = rest.first == "+"
  if navigation { rest.removeFirst() }
  let screen = JSONValue.string(rest.isEmpty ? "root" : String(rest))
  switch marker {
  case "R": return .root(screen, withNavigation: navigation)
  case "↑": return .push(screen)
  case "◻": return .sheet(screen, withNavigation: navigation)
  default: return .cover(screen, withNavigation: navigation)
  }
}
