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
  public mutating func push<Screen>(_ screen: Screen, child: Coordinator<Screen>? = nil) throws(NavigationError)
  where Element == Route<Screen> {
    try applyOnStack(.push(screen, child: child))
  }

  /// Presents a screen as a sheet.
  public mutating func presentSheet<Screen>(
    _ screen: Screen, withNavigation: Bool = false, child: Coordinator<Screen>? = nil
  ) throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.presentSheet(screen, withNavigation: withNavigation, child: child))
  }

  /// Presents a screen as a full-screen cover.
  public mutating func presentCover<Screen>(
    _ screen: Screen, withNavigation: Bool = false, child: Coordinator<Screen>? = nil
  ) throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.presentCover(screen, withNavigation: withNavigation, child: child))
  }

  /// Removes the top `count` routes, whatever their style; never the root.
  public mutating func goBack<Screen>(_ count: Int = 1) throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.goBack(count: count))
  }

  /// Keeps routes `0...index`.
  public mutating func goBackTo<Screen>(index: Int) throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.goBackTo(index: index))
  }

  /// Goes back to the topmost route that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  package mutating func goBackTo<Screen>(whereRoute matches: (Route<Screen>) -> Bool) throws(NavigationError) -> Bool
  where Element == Route<Screen> {
    guard let index = lastIndex(where: matches) else { return false }
    try goBackTo(index: index)
    return true
  }

  /// Goes back to the topmost screen that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  public mutating func goBackTo<Screen>(where matches: (Screen) -> Bool) throws(NavigationError) -> Bool
  where Element == Route<Screen> {
    try goBackTo(whereRoute: { matches($0.screen) })
  }

  /// Goes back to the topmost occurrence of `screen`; returns `false` when it is not in the stack.
  @discardableResult
  public mutating func goBackTo<Screen>(_ screen: Screen) throws(NavigationError) -> Bool
  where Element == Route<Screen> {
    try goBackTo(whereRoute: { $0.screen == screen })
  }

  /// Keeps only the root (nothing happens at the root).
  public mutating func goBackToRoot<Screen>() throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.goBackToRoot)
  }

  /// Pops the top `count` routes, which must all be pushes.
  public mutating func pop<Screen>(_ count: Int = 1) throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.pop(count: count))
  }

  /// Pops down to `index`; every removed route must be a push.
  public mutating func popTo<Screen>(index: Int) throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.popTo(index: index))
  }

  /// Pops to the topmost route that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  package mutating func popTo<Screen>(whereRoute matches: (Route<Screen>) -> Bool) throws(NavigationError) -> Bool
  where Element == Route<Screen> {
    guard let index = lastIndex(where: matches) else { return false }
    try popTo(index: index)
    return true
  }

  /// Pops to the topmost screen that matches; returns `false` (changing nothing) when none does.
  @discardableResult
  public mutating func popTo<Screen>(where matches: (Screen) -> Bool) throws(NavigationError) -> Bool
  where Element == Route<Screen> {
    try popTo(whereRoute: { matches($0.screen) })
  }

  /// Pops to the topmost occurrence of `screen`; returns `false` when it is not in the stack.
  @discardableResult
  public mutating func popTo<Screen>(_ screen: Screen) throws(NavigationError) -> Bool
  where Element == Route<Screen> {
    try popTo(whereRoute: { $0.screen == screen })
  }

  /// Pops everything above the root, which must all be pushes.
  public mutating func popToRoot<Screen>() throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.popToRoot)
  }

  /// Pops the pushes above the topmost presented route (or the root).
  public mutating func popToCurrentNavigationRoot<Screen>() throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.popToCurrentNavigationRoot)
  }

  /// Dismisses the `count`-th presented route from the top, with everything above it.
  public mutating func dismiss<Screen>(count: Int = 1) throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.dismiss(count: count))
  }

  /// Dismisses every presented route, keeping the pushes of the bottom layer.
  public mutating func dismissAll<Screen>() throws(NavigationError) where Element == Route<Screen> {
    try applyOnStack(.dismissAll)
  }

  /// Whether a push would be accepted now.
  ///
  /// Always a definite answer: with the root in the array, the top navigation context is known
  /// (FlowStacks returns `nil` when only the parent could tell).
  public func canPush<Screen>() -> Bool where Element == Route<Screen> {
    guard let screen = last?.screen else { return false }
    return Coordinator.stack(self).accepts(.push(screen))
  }

  /// Whether going back `count` routes would be accepted now.
  public func canGoBack<Screen>(_ count: Int = 1) -> Bool where Element == Route<Screen> {
    Coordinator.stack(self).accepts(.goBack(count))
  }

  /// Applies one operation to this array as the top stack, in place, all or nothing.
  private mutating func applyOnStack<Screen>(_ kind: NavigationOperation<Screen>.Kind) throws(NavigationError)
  where Element == Route<Screen> {
    var coordinator = Coordinator.stack(self)
    self = []  // leave the storage uniquely owned by `coordinator`, so the edit is in place
    defer { self = coordinator.routes ?? [] }
    try coordinator.apply(NavigationOperation(kind))
  }
}
