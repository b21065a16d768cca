@_spi(Internals) import NavCore

/// How the user came to a screen view: the `arrival` and `direction` columns of `screen-views`.
///
/// A view is a visit's first (a change brought its screen on top) or its continuation after the
/// background (`resumed`), which repeats the visit's arrival: a funnel that counts arrivals
/// leaves out the continuations and the returns.
package struct ViewArrival: Hashable, Sendable {
  /// What brought the screen on top.
  package enum Kind: String, Hashable, Sendable {
    /// The session's first screen.
    case start
    /// A restored session's first screen: the app put the user back there.
    case restore
    /// A push.
    case push
    /// A sheet or a cover presented.
    case present
    /// Routes removed above it: back, pop, or a stack replaced by a shorter one.
    case back
    /// A presentation dismissed.
    case dismiss
    /// A tab selected.
    case tab
    /// One action of several kinds of change at once: what a deep link records.
    case deepLink = "deep_link"
    /// A stack replaced, or a screen changed in place, bringing a screen not there before.
    case replace
  }

  /// What brought the screen on top.
  package var kind: Kind
  /// Whether the screen was there before, covered, and the change uncovered it (the user came
  /// back to it) rather than bringing it (`forward`).
  package var isReturn: Bool

  /// The `direction` column's word.
  package var direction: String { isReturn ? "return" : "forward" }

  /// A session's first view.
  package static func first(restored: Bool) -> ViewArrival {
    ViewArrival(kind: restored ? .restore : .start, isReturn: false)
  }

  /// The arrival a change of `movements` made, which left `visible` (its route `route`) on top;
  /// `replaced` is the stack its first `setRoutes` replaced, with its path, as it was.
  ///
  /// The change is a return when it brought nothing (no push, presentation or tab) and the
  /// screen stood at the same place, with the same value, under other routes: a change that only
  /// removes routes (back, pop, dismiss) leaves every route that stays where it was, and a
  /// replaced stack uncovered the screen when the old stack held it at its place.
  package static func of(
    _ movements: [NavigationMovement], bringing visible: VisibleScreen, route: AnyRoute?,
    replaced: (path: CoordinatorPath, old: AnyCoordinator)?
  ) -> ViewArrival {
    let kinds = Set(movements).subtracting([.lifecycle, .start])
    let removesOnly = !kinds.isEmpty && kinds.isSubset(of: [.back, .dismiss])
    let bringsScreens = kinds.contains(.push) || kinds.contains(.present) || kinds.contains(.tab)
    let isReturn =
      !bringsScreens && route != nil && (removesOnly || uncovers(visible, route: route, replaced: replaced))
    let kind: Kind
    if removesOnly {
      kind = kinds.contains(.dismiss) ? .dismiss : .back
    } else if kinds.count == 1, let only = kinds.first {
      switch only {
      case .push: kind = .push
      case .present: kind = .present
      case .tab: kind = .tab
      case .replace: kind = isReturn ? .back : .replace
      case .back: kind = .back
      case .dismiss: kind = .dismiss
      case .start, .lifecycle: kind = .replace
      }
    } else if kinds.isEmpty {
      kind = .replace
    } else {
      kind = .deepLink
    }
    return ViewArrival(kind: kind, isReturn: isReturn)
  }

  /// Whether the replaced stack held `visible`'s route at its place, with the same value.
  private static func uncovers(
    _ visible: VisibleScreen, route: AnyRoute?, replaced: (path: CoordinatorPath, old: AnyCoordinator)?
  ) -> Bool {
    guard let route, let replaced, visible.coordinator.steps.starts(with: replaced.path.steps) else { return false }
    let inside = CoordinatorPath(Array(visible.coordinator.steps.dropFirst(replaced.path.steps.count)))
    guard case .stack(let routes)? = try? replaced.old.coordinator(at: inside), routes.indices.contains(visible.index)
    else { return false }
    return routes[visible.index].screen == route.screen
  }
}
