import NavCore

/// The readable form of a navigation tree: coordinators, routes, styles and screen names,
/// indented by nesting.
enum TreeText {
  static func render(_ coordinator: AnyCoordinator) -> String {
    var lines: [String] = []
    render(coordinator, indent: "", into: &lines)
    return lines.joined(separator: "\n")
  }

  private static func render(_ coordinator: AnyCoordinator, indent: String, into lines: inout [String]) {
    switch coordinator {
    case .stack(let routes):
      lines.append(indent + "stack")
      let width = routes.map { style($0.style).count }.max() ?? 0
      for (index, route) in routes.enumerated() {
        let label = style(route.style)
        lines.append(indent + "  [\(index)] " + label + String(repeating: " ", count: width - label.count) + "  " + route.screenName)
        if let child = route.child {
          render(child, indent: indent + "      ", into: &lines)
        }
      }
    case .tabs(let tabs, let selected):
      lines.append(indent + "tabs, tab \(selected) selected")
      for (index, tab) in tabs.enumerated() {
        lines.append(indent + "  tab \(index)" + (index == selected ? " (selected)" : ""))
        render(tab, indent: indent + "    ", into: &lines)
      }
    }
  }

  private static func style(_ style: RouteStyle) -> String {
    style.withNavigation ? "\(style.name), navigation" : style.name
  }
}
