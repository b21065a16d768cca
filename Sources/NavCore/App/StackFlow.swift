// swift-format-ignore: AmbiguousTrailingClosureOverload
// (FlowStacks' spelling: `goBackTo` and `popTo` take a screen or a closure.)
/// One stack of the navigation tree, as a child feature sees it: its routes, and FlowStacks'
/// operations on them, with no path to spell.
///
/// Obtained from the model (`model.stack`) or from the flow hosting it (`stack(hostedBy:)`,
/// `tabs.stack(_:)`), and valid while the flow exists: it follows its flow when routes are
/// added below it or tabs are reordered, and once the screen or tab hosting it is gone, every
/// operation fails with `NavigationModelError.flowGone` instead of acting on whatever has taken
/// its place. Each operation is one change of the model: checked, recorded and shown (inside
/// `model.perform`, part of that action). An impossible one changes nothing and is reported
/// (see `NavigationModel.failureHandling`); `change` is the throwing form.
@MainActor
public struct StackFlow<AppScreen: NavigationScreen> {
  /// The model the flow belongs to.
  package let model: NavigationModel<AppScreen>
  let anchor: FlowAnchor

  init(model: NavigationModel<AppScreen>, anchor: FlowAnchor) {
    self.model = model
    self.anchor = anchor
  }

  /// Where the flow is in the model's state now, or `nil` once it is gone.
  public var path: CoordinatorPath? { anchor.resolve(in: model.current, renames: model.renames) }

  /// The flow's routes in the model's state (where the app is, including the changes of the
  /// action under way); empty once the flow is gone.
  public var routes: [Route<AppScreen>] { model.current.coordinator(of: anchor, renames: model.renames)?.routes ?? [] }

  /// The flow's routes as the host shows them: what SwiftUI binds to. The host's writes are the
  /// user's own changes (a back swipe, a sheet pulled down), recorded with `origin: .user`.
  public var shownRoutes: [Route<AppScreen>] {
    get { model.shown.coordinator(of: anchor, renames: model.renames)?.routes ?? [] }
    nonmutating set {
      let anchor = anchor
      let renames = model.renames
      model.hostDidChange { state throws(NavigationModelError) in
        try state.apply(.setRoutes(newValue), to: anchor, renames: renames)
      } ahead: { state throws(NavigationModelError) in
        // Where the app is going, while a restore plays: routes the host cut (a back swipe, a
        // sheet dragged down) keep what is still to be built inside the ones that stay.
        let (_, found) = try state.located(anchor, renames: renames)
        let going = found.routes ?? []
        let truncates =
          newValue.count <= going.count
          && zip(newValue, going).allSatisfy { $0.style == $1.style && $0.screen == $1.screen }
        try state.apply(
          .setRoutes(truncates ? Array(going.prefix(newValue.count)) : newValue), to: anchor, renames: renames)
      }
    }
  }

  // MARK: What the host shows

  /// The stack's base layer as the host shows it: the root and its navigation path, with the
  /// sheets and covers above it reached through ``ShownLayer/above``. What a host view starts
  /// from (see ``ShownLayer``).
  public var baseLayer: ShownLayer<AppScreen> { ShownLayer(flow: self, number: 0) }

  /// Every layer the host shows now, base first.
  public var shownLayers: [ShownLayer<AppScreen>] {
    StackLayer.layers(of: shownRoutes).indices.map { ShownLayer(flow: self, number: $0) }
  }

  // MARK: Child flows

  /// The stack hosted by the route at `index`.
  public func stack(hostedBy index: Int) -> StackFlow {
    StackFlow(
      model: model, anchor: anchor.appending(.route(index), kind: .stack, in: model.current, renames: model.renames))
  }

  /// The tabs hosted by the route at `index`.
  public func tabs(hostedBy index: Int) -> TabsFlow<AppScreen> {
    TabsFlow(
      model: model, anchor: anchor.appending(.route(index), kind: .tabs, in: model.current, renames: model.renames))
  }

  /// The stack hosted by the topmost route showing `screen`.
  public func stack(hostedBy screen: AppScreen) -> StackFlow {
    guard let index = routes.lastIndex(where: { $0.screen == screen }) else {
      return StackFlow(model: model, anchor: anchor.missing(.stack, hostedBy: screen))
    }
    return stack(hostedBy: index)
  }

  /// The tabs hosted by the topmost route showing `screen`.
  public func tabs(hostedBy screen: AppScreen) -> TabsFlow<AppScreen> {
    guard let index = routes.lastIndex(where: { $0.screen == screen }) else {
      return TabsFlow(model: model, anchor: anchor.missing(.tabs, hostedBy: screen))
    }
    return tabs(hostedBy: index)
  }

  // MARK: Operations

  /// Pushes a screen (with the flow it hosts, if any).
  public func push(_ screen: AppScreen, child: Coordinator<AppScreen>? = nil) {
    perform(.push(screen, child: child))
  }

  /// Presents a screen as a sheet.
  public func presentSheet(_ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil) {
    perform(.presentSheet(screen, withNavigation: withNavigation, child: child))
  }

  /// Presents a screen as a full-screen cover.
  public func presentCover(_ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil) {
    perform(.presentCover(screen, withNavigation: withNavigation, child: child))
  }

  /// Removes the top `count` routes, whatever their style; never the root.
  public func goBack(_ count: Int = 1) {
    perform(.goBack(count: count))
  }

  /// Keeps routes `0...index`.
  public func goBackTo(index: Int) {
    perform(.goBackTo(index: index))
  }

  /// Goes back to the topmost occurrence of `screen`; `false` (changing nothing, reporting
  /// nothing) when the flow does not show it, as in FlowStacks.
  @discardableResult
  public func goBackTo(_ screen: AppScreen) -> Bool {
    goBackTo(where: { $0 == screen })
  }

  /// Goes back to the topmost screen that matches; `false` when none does.
  @discardableResult
  public func goBackTo(where matches: (AppScreen) -> Bool) -> Bool {
    performAtTopmost(where: matches) { .goBackTo(index: $0) }
  }

  /// Keeps only the root.
  public func goBackToRoot() {
    perform(.goBackToRoot)
  }

  /// Pops the top `count` routes, which must all be pushes.
  public func pop(_ count: Int = 1) {
    perform(.pop(count: count))
  }

  /// Pops down to `index`; every removed route must be a push.
  public func popTo(index: Int) {
    perform(.popTo(index: index))
  }

  /// Pops to the topmost occurrence of `screen`; `false` when the flow does not show it.
  @discardableResult
  public func popTo(_ screen: AppScreen) -> Bool {
    popTo(where: { $0 == screen })
  }

  /// Pops to the topmost screen that matches; `false` when none does.
  @discardableResult
  public func popTo(where matches: (AppScreen) -> Bool) -> Bool {
    performAtTopmost(where: matches) { .popTo(index: $0) }
  }

  /// Pops everything above the root, which must all be pushes.
  public func popToRoot() {
    perform(.popToRoot)
  }

  /// Pops the pushes above the topmost presented route (or the root).
  public func popToCurrentNavigationRoot() {
    perform(.popToCurrentNavigationRoot)
  }

  /// Dismisses the `count`-th presented route from the top, with everything above it. With
  /// nothing presented it changes nothing and reports nothing, as `dismissAll` does (a close
  /// button tapped twice); asking for more layers than are presented is refused.
  public func dismiss(count: Int = 1) {
    if let routes = model.current.coordinator(of: anchor, renames: model.renames)?.routes,
      !routes.contains(where: \.style.isPresented)
    {
      model.attempt { _ throws(NavigationModelError) in }  // a call that succeeds, changing nothing
      return
    }
    perform(.dismiss(count: count))
  }

  /// Dismisses every presented route, keeping the pushes of the bottom layer; with nothing
  /// presented, changes nothing and reports nothing.
  public func dismissAll() {
    perform(.dismissAll)
  }

  /// Replaces the routes, as the app's own change (`shownRoutes` takes the user's).
  public func setRoutes(_ routes: [Route<AppScreen>]) {
    perform(.setRoutes(routes))
  }

  /// Replaces the screen at `index`, keeping its style and the flow it hosts. The new value is
  /// the same screen to the handles of the flows it hosts, and of its tab when it is a tab's
  /// root: they follow it, where a screen replaced any other way (`setRoutes`) is a new one.
  public func updateScreen(at index: Int, to screen: AppScreen) {
    let old = routes.indices.contains(index) ? routes[index].screen : nil
    guard perform(.updateScreen(index: index, screen: screen)), let old else { return }
    model.hostRenamed(from: old, to: screen)
  }

  /// Changes the routes with the throwing convenience API, FlowStacks' `withDelaysIfUnsupported`
  /// style: `try feed.change { try $0.goBackToRoot() }`. Throws what `body` throws (a
  /// `NavigationError`), or a `NavigationModelError` (the flow is gone, the result cannot be
  /// shown); nothing changes then, and nothing is reported.
  public func change(_ body: (inout [Route<AppScreen>]) throws -> Void) throws {
    let anchor = anchor
    let renames = model.renames
    try model.change { state in
      let (path, coordinator) = try state.located(anchor, renames: renames)
      guard var routes = coordinator.routes else {
        throw NavigationModelError.flowGone(kind: anchor.kind, path: anchor.origin)
      }
      do {
        try body(&routes)
      } catch let error as NavigationError {
        // The routes' own methods see the flow as a top stack: say where it really is.
        throw NavigationError(
          operation: error.operation, path: CoordinatorPath(path.steps + error.path.steps), reason: error.reason)
      }
      try state.apply(.setRoutes(routes, at: path))
    }
  }

  // MARK: Inside

  @discardableResult
  private func perform(_ operation: NavigationOperation<AppScreen>.Kind) -> Bool {
    let anchor = anchor
    let renames = model.renames
    return model.attempt { state throws(NavigationModelError) in
      try state.apply(operation, to: anchor, renames: renames)
    }
  }

  /// Applies the operation `operation` makes of the index of the topmost screen that matches,
  /// reading the flow's routes once; `false`, changing and reporting nothing, when none matches.
  /// A flow that is gone is reported (and drops the action under way).
  private func performAtTopmost(
    where matches: (AppScreen) -> Bool, _ operation: (Int) -> NavigationOperation<AppScreen>.Kind
  ) -> Bool {
    guard let routes = model.current.coordinator(of: anchor, renames: model.renames)?.routes else {
      let missing = anchor.missing
      model.attempt { _ throws(NavigationModelError) in throw missing }
      return false
    }
    guard let index = routes.lastIndex(where: { matches($0.screen) }) else { return false }
    return perform(operation(index))
  }
}
