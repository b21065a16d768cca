/// A route is identified by its screen, as in TCACoordinators' identified routes, so apps whose
/// screens carry ids can use `IdentifiedArray`-style lookups and `ForEach` over routes.
extension Route: Identifiable where AppScreen: Identifiable {
  /// The screen's id.
  public var id: AppScreen.ID { screen.id }
}

/// Lookups and navigation by screen identity, for apps whose screens are `Identifiable`.
///
/// Ids survive what equality does not: a screen whose content changed in place (a counter, a
/// loaded model) is still the same screen. Like FlowStacks' convenience methods, the topmost
/// match wins, and a missing id changes nothing and answers `false`.
extension Array {
  /// The index of the topmost route whose screen has `id`, or `nil`.
  package func topmostIndex<AppScreen: Identifiable>(id: AppScreen.ID) -> Int? where Element == Route<AppScreen> {
    lastIndex(where: { $0.screen.id == id })
  }

  /// The index of the topmost route showing `screen`, or `nil`.
  package func topmostIndex<AppScreen>(of screen: AppScreen) -> Int? where Element == Route<AppScreen> {
    lastIndex(where: { $0.screen == screen })
  }

  /// Goes back to the topmost screen with `id`, removing whatever stands on it; returns `false`
  /// (changing nothing) when no screen has it.
  @discardableResult
  public mutating func goBackTo<AppScreen: Identifiable>(id: AppScreen.ID) throws(NavigationError) -> Bool
  where Element == Route<AppScreen> {
    try goBackTo(whereRoute: { $0.screen.id == id })
  }

  /// Pops to the topmost screen with `id`; every removed route must be a push. Returns `false`
  /// (changing nothing) when no screen has it.
  @discardableResult
  public mutating func popTo<AppScreen: Identifiable>(id: AppScreen.ID) throws(NavigationError) -> Bool
  where Element == Route<AppScreen> {
    try popTo(whereRoute: { $0.screen.id == id })
  }
}
