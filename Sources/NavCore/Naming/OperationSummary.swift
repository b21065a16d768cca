/// One-line, human-readable descriptions of operations, for plans, histories and audits.
///
/// Screens are named by the screen-name rule, so a line reads "push numberDetail" whatever the
/// app's screen type is. Each operation's words are in `OperationCatalog.swift`.
extension NavigationOperation {
  /// What the operation does, in a few words: `present sheet numbersList with navigation in [route 0]`.
  package var summary: String {
    let what = kind.summary
    return path.isTop ? what : "\(what) in [" + path.steps.map(\.description).joined(separator: ", ") + "]"
  }
}

extension Coordinator {
  /// `a stack of 3 routes` or `3 tabs`: the coordinator's outline in words.
  package var shapeSummary: String {
    switch self {
    case .stack(let routes): "a stack of \(routes.count) route\(routes.count == 1 ? "" : "s")"
    case .tabs(let tabs, _): "\(tabs.count) tab\(tabs.count == 1 ? "" : "s")"
    }
  }
}
