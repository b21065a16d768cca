/// One tabs coordinator of the navigation tree, as a child feature sees it: the selection, the
/// tabs' own flows, and the operations on them, with no path to spell.
///
/// Obtained from the model (`model.tabs`) or from the flow hosting it (`stack.tabs(hostedBy:)`),
/// and valid while the flow exists, like `StackFlow`. A tab is known by the root screen of its
/// stack, so a handle to a tab's flow follows it when the tabs are reordered.
@MainActor
public struct TabsFlow<AppScreen: NavigationScreen> {
  /// The model the flow belongs to.
  package let model: NavigationModel<AppScreen>
  let anchor: FlowAnchor

  init(model: NavigationModel<AppScreen>, anchor: FlowAnchor) {
    self.model = model
    self.anchor = anchor
  }

  /// Where the flow is in the model's state now, or `nil` once it is gone.
  public var path: CoordinatorPath? { anchor.resolve(in: model.current, renames: model.renames) }

  /// The tabs in the model's state; empty once the flow is gone.
  public var tabs: [Coordinator<AppScreen>] {
    guard case .tabs(let tabs, _) = model.current.coordinator(of: anchor, renames: model.renames) else { return [] }
    return tabs
  }

  /// The selected tab in the model's state, or `nil` once the flow is gone.
  public var selected: Int? {
    guard case .tabs(_, let selected) = model.current.coordinator(of: anchor, renames: model.renames) else {
      return nil
    }
    return selected
  }

  /// The selected tab as the host shows it: what a `TabView` binds to. The host's writes are
  /// the user's taps on the tab bar, recorded with `origin: .user`.
  public var selection: Int {
    get {
      guard case .tabs(_, let selected) = model.shown.coordinator(of: anchor, renames: model.renames) else { return 0 }
      return selected
    }
    nonmutating set {
      let anchor = anchor
      let renames = model.renames
      model.hostDidChange { state throws(NavigationModelError) in
        try state.apply(.selectTab(index: newValue), to: anchor, renames: renames)
      }
    }
  }

  // MARK: Child flows

  /// The stack of tab `index`.
  public func stack(_ index: Int) -> StackFlow<AppScreen> {
    StackFlow(
      model: model, anchor: anchor.appending(.tab(index), kind: .stack, in: model.current, renames: model.renames))
  }

  /// The tabs of tab `index`, when a tab holds tabs of its own.
  public func tabs(_ index: Int) -> TabsFlow {
    TabsFlow(
      model: model, anchor: anchor.appending(.tab(index), kind: .tabs, in: model.current, renames: model.renames))
  }

  /// The flow of each tab as the host shows them, in order: what a `TabView` shows, one tab per
  /// entry, tagged with its index.
  public var shownTabs: [HostedFlow<AppScreen>] {
    guard case .tabs(let tabs, _) = model.shown.coordinator(of: anchor, renames: model.renames) else { return [] }
    return tabs.indices.map { HostedFlow(kind: tabs[$0].kind, at: .tab($0), below: anchor, of: model) }
  }

  // MARK: Operations

  /// Selects tab `index`, as the app's own change (`selection` takes the user's).
  public func select(_ index: Int) {
    let anchor = anchor
    let renames = model.renames
    model.attempt { state throws(NavigationModelError) in
      try state.apply(.selectTab(index: index), to: anchor, renames: renames)
    }
  }

  /// Replaces the tabs and the selection.
  public func setTabs(_ tabs: [Coordinator<AppScreen>], selected: Int) {
    let anchor = anchor
    let renames = model.renames
    model.attempt { state throws(NavigationModelError) in
      try state.apply(.setTabs(tabs, selected: selected), to: anchor, renames: renames)
    }
  }

  /// Changes the flow's coordinator with throwing code of the app's own; throws what `body`
  /// throws or a `NavigationModelError`, changing nothing, reporting nothing.
  public func change(_ body: (inout Coordinator<AppScreen>) throws -> Void) throws {
    let anchor = anchor
    let renames = model.renames
    try model.change { state in
      let (path, found) = try state.located(anchor, renames: renames)
      var coordinator = found
      try body(&coordinator)
      guard case .tabs(let tabs, let selected) = coordinator else {
        throw NavigationModelError.rejected(
          NavigationError(
            operation: "setTabs", path: path, reason: .wrongCoordinatorKind(expected: .tabs, found: coordinator.kind)))
      }
      try state.apply(.setTabs(tabs, selected: selected, at: path))
    }
  }
}
