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

extension NavigationOperation: CustomStringConvertible {
  /// The operation in the words `navstore history` prints: `push numberDetail in [route 0,
  /// tab 1]`, `select tab 2`, `the app went to the background`. For a debug timeline, or the
  /// last navigations attached to a bug report.
  public var description: String { summary }
}

extension NavigationEvent: CustomStringConvertible {
  /// The event in one line: `3 user: go back (because backTapped)`, its seq, its
  /// origin, its operation in the words `navstore history` prints, and the app's cause.
  public var description: String {
    let cause = self.cause.map { " (because \(ScreenName.compact($0)))" } ?? ""
    return "\(seq.map(String.init) ?? "-") \(origin.rawValue): \(operation.summary)\(cause)"
  }
}
