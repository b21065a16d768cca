/// Where a restore starts from when the app launches with only its roots on screen.
extension Coordinator {
  /// The state an app shows at launch before a restore: every stack cut back to its root, tabs
  /// and their selection kept. `navstore replay` plans from here to the recorded state.
  public var launchState: Coordinator {
    switch self {
    case .stack(let routes):
      guard var root = routes.first else { return self }
      root.child = root.child?.launchState
      return .stack([root])
    case .tabs(let tabs, let selected):
      return .tabs(tabs.map(\.launchState), selected: selected)
    }
  }
}
