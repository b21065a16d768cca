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

  /// The arrival a change of `movements` made, where `uncovered` says whether the screen now on
  /// top was in the state before at the same place, with the same value, under other routes.
  package static func of(_ movements: [NavigationMovement], uncovered: Bool) -> ViewArrival {
    let kinds = Set(movements).subtracting([.lifecycle, .start])
    let bringsScreens = kinds.contains(.push) || kinds.contains(.present) || kinds.contains(.tab)
    let isReturn = uncovered && !bringsScreens
    let kind: Kind
    if kinds.isSubset(of: [.back, .dismiss]), !kinds.isEmpty {
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

  /// Whether `visible` (its route `route`) was in the state before the change at the same
  /// place, with the same value, under other routes. A change that only removes routes (back,
  /// pop, dismiss) leaves every route that stays where it was, so its new top was there; a
  /// change that replaced a stack (`replaced`: the stack's path and the coordinator it was)
  /// uncovered the screen when the old stack held it at its place. Other changes bring it.
  package static func uncovers(
    _ visible: VisibleScreen, route: AnyRoute, movements: [NavigationMovement],
    replaced: (path: CoordinatorPath, old: AnyCoordinator)?
  ) -> Bool {
    let kinds = Set(movements)
    if !kinds.isEmpty, kinds.isSubset(of: [.back, .dismiss]) { return true }
    guard let replaced, visible.coordinator.steps.starts(with: replaced.path.steps) else { return false }
    let inside = CoordinatorPath(Array(visible.coordinator.steps.dropFirst(replaced.path.steps.count)))
    guard case .stack(let routes)? = try? replaced.old.coordinator(at: inside), routes.indices.contains(visible.index)
    else { return false }
    return routes[visible.index].screen == route.screen
  }
}
