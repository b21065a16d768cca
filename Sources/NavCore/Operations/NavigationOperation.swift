/// One normalized navigation change, applied at a place in the tree.
///
/// This is the log's vocabulary: every operation the anchor libraries offer (FlowStacks,
/// TCACoordinators, TCA stacks, swift-composable-navigation, RoutingReducer) maps onto one of
/// these, so a session recorded from any of them replays the same way. Indices count from the
/// root (index 0) of the stack at `path`.
public struct NavigationOperation<AppScreen: NavigationScreen>: Hashable, Sendable {
  /// What changes.
  package var kind: Kind
  /// Which coordinator it changes; the top one by default.
  public var path: CoordinatorPath

  /// Creates an operation at a path.
  package init(_ kind: Kind, at path: CoordinatorPath = .top) {
    self.kind = kind
    self.path = path
  }

  /// The operations of the wire format, plus `setTabs` (see docs/decisions.md).
  package enum Kind: Hashable, Sendable {
    /// The session's first state, the session it was restored from, if it was, what it runs
    /// on, if the app says, and what the launch that began it did, if a launch decided it.
    case start(
      Coordinator<AppScreen>, restoredFrom: SessionLink? = nil, context: SessionContext? = nil,
      launch: LaunchRecord? = nil)
    /// Append a pushed route; needs a navigation stack at the top of the stack.
    case push(AppScreen, child: Coordinator<AppScreen>?)
    /// Append a sheet.
    case presentSheet(AppScreen, withNavigation: Bool, child: Coordinator<AppScreen>?)
    /// Append a full-screen cover.
    case presentCover(AppScreen, withNavigation: Bool, child: Coordinator<AppScreen>?)
    /// Remove the top `count` routes, whatever their style; never the root.
    case goBack(count: Int)
    /// Keep routes `0...index`.
    case goBackTo(index: Int)
    /// Keep only the root.
    case goBackToRoot
    /// Remove the top `count` routes, all of which must be pushes.
    case pop(count: Int)
    /// Keep routes `0...index`; every removed route must be a push.
    case popTo(index: Int)
    /// `popTo(index: 0)`.
    case popToRoot
    /// Remove the pushes above the topmost route that is not a push.
    case popToCurrentNavigationRoot
    /// Remove the `count`-th presented route from the top and everything above it.
    case dismiss(count: Int)
    /// Remove every presented route and everything above the first one.
    case dismissAll
    /// Replace the stack: a deep link, or what a host reports after a gesture.
    case setRoutes([Route<AppScreen>])
    /// Change a screen's state in place, keeping its style and child.
    case updateScreen(index: Int, screen: AppScreen)
    /// Select a tab.
    case selectTab(index: Int)
    /// Replace the tabs of a tabs coordinator (a NavStore extension of the wire format).
    case setTabs([Coordinator<AppScreen>], selected: Int)
    /// The app left the foreground: the screen on top stops being seen (the state is kept).
    case background
    /// The app came back to the foreground: the screen on top is seen again.
    case foreground
    /// The session is over; nothing may follow. `reason` is the app's word for why.
    case end(reason: String?)

    /// The wire-format name of the operation (`"push"`, `"goBackTo"`, ...).
    package var name: String { operationName.rawValue }
  }

  /// The wire-format name of the operation.
  public var name: String { kind.name }

  /// The screen the operation shows, for the operations that carry one (push, the two
  /// presentations, updateScreen): the events export's `screen` column, or what a debug
  /// timeline shows beside the operation's `name`.
  public var screen: AppScreen? { kind.fieldValues.screen }

  /// The index the operation names (`goBackTo`, `popTo`, `updateScreen`, and the tab
  /// `selectTab` selects), or `nil`.
  public var index: Int? { kind.fieldValues.index }

  /// How many routes or layers the operation removes (`goBack`, `pop`, `dismiss`), or `nil`.
  public var count: Int? { kind.fieldValues.count }

  /// The context a `start` carries, if any; `nil` for every other operation.
  package var context: SessionContext? {
    if case .start(_, _, let context, _) = kind { return context }
    return nil
  }

  /// What the launch that began the session did, when its `start` says; `nil` for every other
  /// operation.
  package var launch: LaunchRecord? {
    if case .start(_, _, _, let launch) = kind { return launch }
    return nil
  }
}

extension NavigationOperation where AppScreen == JSONValue {
  /// `screen`, compiled for untyped screens (the export reads it once per event).
  package var screen: JSONValue? { kind.fieldValues.screen }

  /// The session a `start` continues, if it names one; `nil` for every other operation.
  package var restoredFrom: SessionLink? {
    if case .start(_, let link, _, _) = kind { return link }
    return nil
  }
}

extension NavigationOperation {
  /// The session's first state; `restoredFrom` names the session (and seq) it continues, when
  /// the app began by restoring one; `context` says what the session runs on (an empty one is
  /// left out).
  public static func start(
    _ state: Coordinator<AppScreen>, restoredFrom: SessionLink? = nil, context: SessionContext? = nil
  ) -> Self {
    Self(.start(state, restoredFrom: restoredFrom, context: context.flatMap { $0.isEmpty ? nil : $0 }))
  }

  /// A `start` that also says what the launch that began the session did: what a recorder
  /// given a launch writes.
  package static func start(
    _ state: Coordinator<AppScreen>, restoredFrom: SessionLink?, context: SessionContext?, launch: LaunchRecord?
  ) -> Self {
    Self(
      .start(state, restoredFrom: restoredFrom, context: context.flatMap { $0.isEmpty ? nil : $0 }, launch: launch))
  }

  /// Push a screen, optionally hosting a child flow.
  public static func push(_ screen: AppScreen, child: Coordinator<AppScreen>? = nil, at path: CoordinatorPath = .top)
    -> Self
  {
    Self(.push(screen, child: child), at: path)
  }

  /// Present a sheet.
  public static func presentSheet(
    _ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil,
    at path: CoordinatorPath = .top
  ) -> Self {
    Self(.presentSheet(screen, withNavigation: withNavigation, child: child), at: path)
  }

  /// Present a full-screen cover.
  public static func presentCover(
    _ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil,
    at path: CoordinatorPath = .top
  ) -> Self {
    Self(.presentCover(screen, withNavigation: withNavigation, child: child), at: path)
  }

  /// Remove the top `count` routes.
  public static func goBack(_ count: Int = 1, at path: CoordinatorPath = .top) -> Self {
    Self(.goBack(count: count), at: path)
  }
  /// Keep routes `0...index`.
  public static func goBackTo(index: Int, at path: CoordinatorPath = .top) -> Self {
    Self(.goBackTo(index: index), at: path)
  }
  /// Keep only the root.
  public static func goBackToRoot(at path: CoordinatorPath = .top) -> Self { Self(.goBackToRoot, at: path) }
  /// Remove the top `count` pushes.
  public static func pop(_ count: Int = 1, at path: CoordinatorPath = .top) -> Self {
    Self(.pop(count: count), at: path)
  }
  /// Pop down to `index`.
  public static func popTo(index: Int, at path: CoordinatorPath = .top) -> Self { Self(.popTo(index: index), at: path) }
  /// Pop down to the root.
  public static func popToRoot(at path: CoordinatorPath = .top) -> Self { Self(.popToRoot, at: path) }
  /// Pop the pushes of the current navigation layer.
  public static func popToCurrentNavigationRoot(at path: CoordinatorPath = .top) -> Self {
    Self(.popToCurrentNavigationRoot, at: path)
  }
  /// Dismiss the `count`-th presented route from the top, with everything above it.
  public static func dismiss(_ count: Int = 1, at path: CoordinatorPath = .top) -> Self {
    Self(.dismiss(count: count), at: path)
  }
  /// Dismiss every presented route.
  public static func dismissAll(at path: CoordinatorPath = .top) -> Self { Self(.dismissAll, at: path) }
  /// Replace the stack.
  public static func setRoutes(_ routes: [Route<AppScreen>], at path: CoordinatorPath = .top) -> Self {
    Self(.setRoutes(routes), at: path)
  }
  /// Change a screen in place.
  public static func updateScreen(index: Int, screen: AppScreen, at path: CoordinatorPath = .top) -> Self {
    Self(.updateScreen(index: index, screen: screen), at: path)
  }
  /// Select a tab.
  public static func selectTab(_ index: Int, at path: CoordinatorPath = .top) -> Self {
    Self(.selectTab(index: index), at: path)
  }
  /// The app left the foreground (its scene went to the background): the screen on top stops
  /// counting as seen until `foreground`. Navigation may go on meanwhile.
  public static var background: Self { Self(.background) }
  /// The app came back to the foreground after `background`.
  public static var foreground: Self { Self(.foreground) }
  /// The session is over: the user signed out, closed it, or the app will not continue it.
  /// Nothing may follow it, and the launch policy does not restore it. `reason` is the app's
  /// own word for why (1 to 256 characters), kept in the log.
  public static func end(reason: String? = nil) -> Self { Self(.end(reason: reason)) }

  /// Whether the operation says what happened to the app (`background`, `foreground`, `end`)
  /// rather than to its navigation: such an operation leaves the state as it is.
  package var isLifecycle: Bool { kind.operationName.isLifecycle }

  /// Replace the tabs.
  public static func setTabs(_ tabs: [Coordinator<AppScreen>], selected: Int, at path: CoordinatorPath = .top) -> Self {
    Self(.setTabs(tabs, selected: selected), at: path)
  }
}

/// An operation on untyped JSON screens.
public typealias AnyOperation = NavigationOperation<JSONValue>
