import NavCore

/// A stack of untyped routes from a compact notation, so tests read like the reference's
/// examples: `"R"` root, `"R+"` root with navigation, `"↑a"` push, `"◻a"`/`"◻+a"` sheet without
/// or with navigation, `"▣a"`/`"▣+a"` cover. The screen is the rest of the token.
public func stack(_ tokens: String...) -> [AnyRoute] {
  tokens.map(route)
}

public func route(_ token: String) -> AnyRoute {
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
