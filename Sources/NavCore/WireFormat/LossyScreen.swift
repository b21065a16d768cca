import NavJSON

/// A screen that does not come back from the JSON it is stored as: a class reference kept by
/// its id, a field the screen's encoding leaves out. A restore would show it changed, or empty.
package struct LossyScreen: Hashable, Sendable {
  /// `Screen.editor`: the type and, for an enum, its case.
  package var screen: String
  /// The first field that came back different (`document`, `0` for an unlabeled value), or
  /// `nil` when the values differ where no field says.
  package var field: String?

  /// The first screen of `state` that does not decode from its JSON in `stored` (the same
  /// tree, untyped, as the recorder wrote it) as a value equal to itself. Screens whose JSON is
  /// in `checked` are skipped, and each one checked is added, so that each screen is checked
  /// once while `checked` holds it.
  package static func first<AppScreen: NavigationScreen>(
    in state: Coordinator<AppScreen>, stored: AnyCoordinator, checked: inout Set<JSONValue>
  ) -> LossyScreen? {
    switch (state, stored) {
    case (.stack(let routes), .stack(let storedRoutes)) where routes.count == storedRoutes.count:
      for (route, storedRoute) in zip(routes, storedRoutes) {
        if let lossy = check(route.screen, stored: storedRoute.screen, checked: &checked) { return lossy }
        if let child = route.child, let storedChild = storedRoute.child,
          let lossy = first(in: child, stored: storedChild, checked: &checked)
        {
          return lossy
        }
      }
    case (.tabs(let tabs, _), .tabs(let storedTabs, _)) where tabs.count == storedTabs.count:
      for (tab, storedTab) in zip(tabs, storedTabs) {
        if let lossy = first(in: tab, stored: storedTab, checked: &checked) { return lossy }
      }
    default:
      break
    }
    return nil
  }

  private static func check<AppScreen: NavigationScreen>(
    _ screen: AppScreen, stored: JSONValue, checked: inout Set<JSONValue>
  ) -> LossyScreen? {
    guard !(screen is JSONValue), checked.insert(stored).inserted else { return nil }
    // A marker for a screen that did not encode at all is reported as such, not as lossy.
    guard UnstorableScreen.found(in: stored) == nil else { return nil }
    let back: AppScreen
    do {
      back = try JSONValueDecoder().decode(AppScreen.self, from: stored)
    } catch {
      return LossyScreen(screen: UnstorableScreen.name(of: screen), field: nil)
    }
    guard back != screen else { return nil }
    return LossyScreen(screen: UnstorableScreen.name(of: screen), field: firstDifferingField(screen, back))
  }

  /// The label of the first stored property (or, for an enum case, associated value) whose
  /// description differs between `original` and `decoded`.
  private static func firstDifferingField(_ original: Any, _ decoded: Any) -> String? {
    var left = Mirror(reflecting: original)
    var right = Mirror(reflecting: decoded)
    // An enum case's values are one child, a tuple of them: look inside it.
    if left.displayStyle == .enum, let inner = left.children.first?.value, let other = right.children.first?.value {
      left = Mirror(reflecting: inner)
      right = Mirror(reflecting: other)
    }
    for (index, (a, b)) in zip(left.children, right.children).enumerated()
    where String(reflecting: a.value) != String(reflecting: b.value) {
      return a.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 } ?? String(index)
    }
    return nil
  }
}
