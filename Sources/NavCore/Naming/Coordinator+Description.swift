/// The readable form of a navigation tree, as `navstore show` prints it: coordinators, routes
/// with their styles, screen names, hosted flows and tabs, indented by nesting. What
/// `print(state)` shows, and what a failed test prints, instead of a raw dump of enums.
///
///     stack
///       [0] root, navigation   home
///       [1] sheet, navigation  numbersList
///       [2] push               numberDetail
extension Coordinator: CustomStringConvertible {
  public var description: String {
    var lines: [String] = []
    Self.render(self, indent: "", into: &lines)
    return lines.joined(separator: "\n")
  }

  private static func render(_ coordinator: Coordinator, indent: String, into lines: inout [String]) {
    switch coordinator {
    case .stack(let routes):
      lines.append(indent + "stack")
      let width = routes.map { $0.styleText.count }.max() ?? 0
      for (index, route) in routes.enumerated() {
        let label = route.styleText
        lines.append(
          indent + "  [\(index)] " + label + String(repeating: " ", count: width - label.count) + "  "
            + ScreenName.compact(route.screen))
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
}

/// One route in a line: `sheet, navigation  numbersList`, and what it hosts.
extension Route: CustomStringConvertible {
  public var description: String {
    styleText + "  " + ScreenName.compact(screen) + (child.map { ", hosting \($0.shapeSummary)" } ?? "")
  }

  /// `push`, or `sheet, navigation`: the style as the tree prints it (and `replay`).
  package var styleText: String {
    style.withNavigation ? "\(style.name), navigation" : style.name
  }
}
