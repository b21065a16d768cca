// swift-format-ignore: AmbiguousTrailingClosureOverload
// (FlowStacks' spelling: `goBackTo` and `popTo` take a closure over routes or over screens, told
// apart by its type.)
/// The convenience API FlowStacks and TCACoordinators users know, on an array of routes with
/// the root at index 0 (TCACoordinators' model).
///
/// Every method is one `NavigationOperation` applied through `Coordinator.apply`, so it has
/// exactly the semantics, and the rejections, of the logged operation. Where the anchors assert
/// and then silently do something else (pop a sheet, go back past the root), these throw a
/// `NavigationError` and leave the array as it was.
extension Array {
  /// Pushes a screen; rejected when the top navigation context has no navigation.
  public mutating func push<AppScreen>(_ screen: AppScreen, child: Coordinator<AppScreen>? = nil)
    throws(NavigationError)
  where Element == Route<AppScreen> {
    try applyOnStack(.push(screen, child: child))
  }

  /// Presents a screen as a sheet.
  public mutating func presentSheet<AppScreen>(
    _ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil
  ) throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.presentSheet(screen, withNavigation: withNavigation, child: child))
  }

  /// Presents a screen as a full-screen cover.
  public mutating func presentCover<AppScreen>(
    _ screen: AppScreen, withNavigation: Bool = false, child: Coordinator<AppScreen>? = nil
  ) throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.presentCover(screen, withNavigation: withNavigation, child: child))
  }

  /// Removes the top `count` routes, whatever their style; never the root.
  public mutating func goBack<AppScreen>(_ count: Int = 1) throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.goBack(count: count))
  }

  /// Keeps routes `0...index`.
  public mutating func goBackTo<AppScreen>(index: Int) throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.goBackTo(index: index))
  }

  /// Goes back to the topmost route that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  package mutating func goBackTo<AppScreen>(whereRoute matches: (Route<AppScreen>) -> Bool) throws(NavigationError)
    -> Bool
  where Element == Route<AppScreen> {
    guard let index = lastIndex(where: matches) else { return false }
    try goBackTo(index: index)
    return true
  }

  /// Goes back to the topmost screen that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  public mutating func goBackTo<AppScreen>(where matches: (AppScreen) -> Bool) throws(NavigationError) -> Bool
  where Element == Route<AppScreen> {
    try goBackTo(whereRoute: { matches($0.screen) })
  }

  /// Goes back to the topmost occurrence of `screen`; returns `false` when it is not in the stack.
  @discardableResult
  public mutating func goBackTo<AppScreen>(_ screen: AppScreen) throws(NavigationError) -> Bool
  where Element == Route<AppScreen> {
    try goBackTo(whereRoute: { $0.screen == screen })
  }

  /// Keeps only the root (nothing happens at the root).
  public mutating func goBackToRoot<AppScreen>() throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.goBackToRoot)
  }

  /// Pops the top `count` routes, which must all be pushes.
  public mutating func pop<AppScreen>(_ count: Int = 1) throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.pop(count: count))
  }

  /// Pops down to `index`; every removed route must be a push.
  public mutating func popTo<AppScreen>(index: Int) throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.popTo(index: index))
  }

  /// Pops to the topmost route that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  package mutating func popTo<AppScreen>(whereRoute matches: (Route<AppScreen>) -> Bool) throws(NavigationError) -> Bool
  where Element == Route<AppScreen> {
    guard let index = lastIndex(where: matches) else { return false }
    try popTo(index: index)
    return true
  }

  /// Pops to the topmost screen that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  public mutating func popTo<AppScreen>(where matches: (AppScreen) -> Bool) throws(NavigationError) -> Bool
  where Element == Route<AppScreen> {
    try popTo(whereRoute: { matches($0.screen) })
  }

  /// Pops to the topmost occurrence of `screen`; returns `false` when it is not in the stack.
  @discardableResult
  public mutating func popTo<AppScreen>(_ screen: AppScreen) throws(NavigationError) -> Bool
  where Element == Route<AppScreen> {
    try popTo(whereRoute: { $0.screen == screen })
  }

  /// Pops everything above the root, which must all be pushes.
  public mutating func popToRoot<AppScreen>() throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.popToRoot)
  }

  /// Pops the pushes above the topmost presented route (or the root).
  public mutating func popToCurrentNavigationRoot<AppScreen>() throws(NavigationError)
  where Element == Route<AppScreen> {
    try applyOnStack(.popToCurrentNavigationRoot)
  }

  /// Dismisses the `count`-th presented route from the top, with everything above it.
  public mutating func dismiss<AppScreen>(count: Int = 1) throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.dismiss(count: count))
  }

  /// Dismisses every presented route, keeping the pushes of the bottom layer.
  public mutating func dismissAll<AppScreen>() throws(NavigationError) where Element == Route<AppScreen> {
    try applyOnStack(.dismissAll)
  }

  /// Whether a push would be accepted now.
  ///
  /// Always a definite answer: with the root in the array, the top navigation context is known
  /// (FlowStacks returns `nil` when only the parent could tell).
  public func canPush<AppScreen>() -> Bool where Element == Route<AppScreen> {
    guard let screen = last?.screen else { return false }
    return Coordinator.stack(self).accepts(.push(screen))
  }

  /// Whether going back `count` routes would be accepted now.
  public func canGoBack<AppScreen>(_ count: Int = 1) -> Bool where Element == Route<AppScreen> {
    Coordinator.stack(self).accepts(.goBack(count))
  }

  /// Applies one operation to this array as the top stack, in place, all or nothing.
  private mutating func applyOnStack<AppScreen>(_ kind: NavigationOperation<AppScreen>.Kind) throws(NavigationError)
  where Element == Route<AppScreen> {
    var coordinator = Coordinator.stack(self)
    self = []  // leave the storage uniquely owned by `coordinator`, so the edit is in place
    defer { self = coordinator.routes ?? [] }
    try coordinator.apply(NavigationOperation(kind))
  }
}
