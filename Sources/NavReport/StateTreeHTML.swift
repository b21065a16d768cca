import NavCore

/// A navigation state as nested lists: each route with its style and screen, hosted flows
/// inside the route that hosts them, tabs with the selected one marked in words, not only in
/// colour.
enum StateTreeHTML {
  static func render(_ state: AnyCoordinator, omitsPayloads: Bool) -> String {
    "<ul class=\"tree\">" + coordinator(state, omitsPayloads: omitsPayloads) + "</ul>"
  }

  private static func coordinator(_ state: AnyCoordinator, omitsPayloads: Bool) -> String {
    switch state {
    case .stack(let routes):
      return "<li><span class=\"kind\">stack</span><ol>"
        + routes.enumerated().map { index, route in Self.route(route, index: index, omitsPayloads: omitsPayloads) }
        .joined()
        + "</ol></li>"
    case .tabs(let tabs, let selected):
      return "<li><span class=\"kind\">tabs</span><ol>"
        + tabs.enumerated().map { index, tab in
          let mark = index == selected ? " <strong class=\"selected\">(selected)</strong>" : ""
          return
            "<li class=\"tab\(index == selected ? " current" : "")\"><span class=\"kind\">tab \(index)</span>\(mark)<ul>"
            + coordinator(tab, omitsPayloads: omitsPayloads) + "</ul></li>"
        }.joined()
        + "</ol></li>"
    }
  }

  private static func route(_ route: AnyRoute, index: Int, omitsPayloads: Bool) -> String {
    let style = route.style.description
    let payload =
      omitsPayloads ? "" : payloadText(route.screen).map { " <code class=\"payload\">\(HTML.escape($0))</code>" } ?? ""
    var item =
      "<li class=\"route \(route.isPresented ? "presented" : "pushed")\"><span class=\"style\">\(HTML.escape(style))</span> "
      + "<span class=\"screen\">\(HTML.escape(route.screenName))</span>\(payload)"
    if let child = route.child {
      item +=
        "<ul class=\"hosted\"><li class=\"caption\">hosts a flow:</li>"
        + coordinator(child, omitsPayloads: omitsPayloads) + "</ul>"
    }
    return item + "</li>"
  }

  /// The screen's JSON when it says more than its name, shortened past 120 characters.
  static func payloadText(_ screen: JSONValue) -> String? {
    if case .string = screen { return nil }
    let text = screen.canonicalString
    return text.count > 120 ? String(text.prefix(117)) + "..." : text
  }
}
