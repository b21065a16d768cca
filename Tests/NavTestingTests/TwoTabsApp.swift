import NavCore

/// A small reducer-style app for the replay's tests: two tabs, each a stack that pushes items
/// and presents a compose sheet (with or without navigation), and a notification that crosses
/// tabs. `reduce` is the app's logic; a mutant is the same logic with one rule broken.
enum TwoTabs {
  enum Screen: Codable, Hashable, Sendable {
    case home(tab: Int)
    case item(Int)
    case compose(draft: Int)
  }

  enum Action: Codable, Hashable, Sendable {
    case open(tab: Int, item: Int)
    case back(tab: Int)
    case compose(tab: Int, draft: Int, navigation: Bool)
    case close(tab: Int)
    case backToRoot(tab: Int)
    case select(Int)
    case notification(item: Int)
  }

  /// One rule of `reduce` broken, as a regression would break it.
  enum Mutation: CaseIterable {
    /// `back` pops nothing.
    case missingPop
    /// `open` pushes onto the other tab.
    case wrongTab
    /// `compose` presents its sheet without navigation.
    case sheetWithoutNavigation
  }

  static var launch: Coordinator<Screen> {
    .tabs(
      [.stack([.root(.home(tab: 0), withNavigation: true)]), .stack([.root(.home(tab: 1), withNavigation: true)])],
      selected: 0)
  }

  /// The app's logic: throws (changing nothing) for what cannot be done.
  static func reduce(_ state: inout Coordinator<Screen>, _ action: Action, mutation: Mutation? = nil) throws {
    switch action {
    case .open(let tab, let item):
      try edit(&state, tab: mutation == .wrongTab ? 1 - tab : tab) { try $0.push(.item(item)) }
    case .back(let tab):
      if mutation == .missingPop { return }
      try edit(&state, tab: tab) { try $0.pop() }
    case .compose(let tab, let draft, let navigation):
      try edit(&state, tab: tab) {
        try $0.presentSheet(.compose(draft: draft), withNavigation: navigation && mutation != .sheetWithoutNavigation)
      }
    case .close(let tab):
      try edit(&state, tab: tab) { try $0.dismiss() }
    case .backToRoot(let tab):
      try edit(&state, tab: tab) { try $0.goBackToRoot() }
    case .select(let tab):
      guard case .tabs(let tabs, _) = state, tabs.indices.contains(tab) else { throw Refused() }
      state = .tabs(tabs, selected: tab)
    case .notification(let item):
      try edit(&state, tab: 0) { routes in
        try routes.goBackToRoot()
        try routes.push(.item(item))
      }
      try reduce(&state, .select(0))
    }
  }

  private static func edit(
    _ state: inout Coordinator<Screen>, tab: Int, _ body: (inout [Route<Screen>]) throws -> Void
  ) throws {
    guard case .tabs(var tabs, let selected) = state, tabs.indices.contains(tab), case .stack(var routes) = tabs[tab]
    else { throw Refused() }
    try body(&routes)
    tabs[tab] = .stack(routes)
    state = .tabs(tabs, selected: selected)
  }

  struct Refused: Error {}
}
