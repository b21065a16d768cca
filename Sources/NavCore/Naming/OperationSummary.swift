/// One-line, human-readable descriptions of operations, for plans, histories and audits.
///
/// Screens are named by the screen-name rule, so a line reads "push numberDetail" whatever the
/// app's screen type is.
extension NavigationOperation {
  /// What the operation does, in a few words: `present sheet numbersList with navigation in [route 0]`.
  public var summary: String {
    let what: String
    switch kind {
    case .start(let state, let restoredFrom):
      what = "start with \(state.shapeSummary)" + (restoredFrom.map { ", restored from \($0)" } ?? "")
    case .push(let screen, let child):
      what = "push \(ScreenName.of(screen))\(Self.hosting(child))"
    case .presentSheet(let screen, let withNavigation, let child):
      what = "present sheet \(ScreenName.of(screen))\(withNavigation ? " with navigation" : "")\(Self.hosting(child))"
    case .presentCover(let screen, let withNavigation, let child):
      what = "present cover \(ScreenName.of(screen))\(withNavigation ? " with navigation" : "")\(Self.hosting(child))"
    case .goBack(let count):
      what = count == 1 ? "go back" : "go back \(count) routes"
    case .goBackTo(let index):
      what = "go back to route \(index)"
    case .goBackToRoot:
      what = "go back to the root"
    case .pop(let count):
      what = count == 1 ? "pop" : "pop \(count) screens"
    case .popTo(let index):
      what = "pop to route \(index)"
    case .popToRoot:
      what = "pop to the root"
    case .popToCurrentNavigationRoot:
      what = "pop to the current navigation root"
    case .dismiss(let count):
      what = count == 1 ? "dismiss" : "dismiss \(count) layers"
    case .dismissAll:
      what = "dismiss all"
    case .setRoutes(let routes):
      what = "set routes [" + routes.map(\.screenName).joined(separator: ", ") + "]"
    case .updateScreen(let index, let screen):
      what = "update route \(index) to \(ScreenName.of(screen))"
    case .selectTab(let index):
      what = "select tab \(index)"
    case .setTabs(let tabs, let selected):
      what = "set \(tabs.count) tab\(tabs.count == 1 ? "" : "s"), tab \(selected) selected"
    }
    return path.isTop ? what : "\(what) in [" + path.steps.map(\.description).joined(separator: ", ") + "]"
  }

  private static func hosting(_ child: Coordinator<Screen>?) -> String {
    guard let child else { return "" }
    return " hosting \(child.shapeSummary)"
  }
}

extension Coordinator {
  /// `a stack of 3 routes` or `3 tabs`: the coordinator's outline in words.
  public var shapeSummary: String {
    switch self {
    case .stack(let routes): "a stack of \(routes.count) route\(routes.count == 1 ? "" : "s")"
    case .tabs(let tabs, _): "\(tabs.count) tab\(tabs.count == 1 ? "" : "s")"
    }
  }
}
