import NavCore

/// A navigation state as nested lists: each route with its style and screen, hosted flows
/// inside the route that hosts them, tabs with the selected one marked in words, not only in
/// colour.
enum StateTreeHTML {
  static func render(_ state: AnyCoordinator, omitsPayloads: Bool) -> Markup {
    "<ul class=\"tree\">" + coordinator(state, omitsPayloads: omitsPayloads) + "</ul>"
  }

  private static func coordinator(_ state: AnyCoordinator, omitsPayloads: Bool) -> Markup {
    switch state {
    case .stack(let routes):
      let items = routes.enumerated().map { index, route in
        Self.route(route, index: index, omitsPayloads: omitsPayloads)
      }
      return "<li><span class=\"kind\">stack</span><ol>\(items)</ol></li>"
    case .tabs(let tabs, let selected):
      let items = tabs.enumerated().map { index, tab -> Markup in
        let mark: Markup = index == selected ? " <strong class=\"selected\">(selected)</strong>" : .empty
        return
          "<li class=\"tab\(index == selected ? " current" : "")\"><span class=\"kind\">tab \(index)</span>\(mark)<ul>"
          + coordinator(tab, omitsPayloads: omitsPayloads) + "</ul></li>"
      }
      return "<li><span class=\"kind\">tabs</span><ol>\(items)</ol></li>"
    }
  }

  private static func route(_ route: AnyRoute, index: Int, omitsPayloads: Bool) -> Markup {
    let style = route.style.description
    let payload: Markup =
      omitsPayloads ? .empty : payloadText(route.screen).map { " <code class=\"payload\">\($0)</code>" } ?? .empty
    var item: Markup =
      "<li class=\"route \(route.isPresented ? "presented" : "pushed")\"><span class=\"style\">\(style)</span> "
      + "<span class=\"screen\">\(route.screenName)</span>\(payload)"
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
