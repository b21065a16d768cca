/// Whether a host can go from one state to another in a single update.
///
/// Written from the wire format's definition ("Legal transitions") and deliberately sharing no
/// code with the planner, so the tests that hold every plan against it check two independent
/// readings of the same rule:
/// - Contents (screens, and a root's `withNavigation`) may change anywhere.
/// - At most one structural change happens. It is one of: a change of one stack that is legal
///   for the profile; a change of the selected tab; a change of the tab set (tabs added or removed
///   at the end, or a tab replaced by one of the other kind; the selection may move with it); a
///   child that appears, disappears or changes kind at a route that stays.
/// - Whatever appears comes with every one of its stacks at its root only.
/// - The top coordinator never changes kind.
extension Coordinator {
  /// Whether `host` can apply the change from `old` to `new` in one update.
  public static func isLegalTransition(from old: Coordinator, to new: Coordinator, host: HostProfile = .default) -> Bool
  {
    guard old.kind == new.kind, let changes = TransitionRules<AppScreen>(host: host).structuralChanges(old, new) else {
      return false
    }
    return changes <= 1
  }

  /// Whether `old` and `new` differ in contents only: the same structure everywhere.
  package static func differsInContentsOnly(_ old: Coordinator, _ new: Coordinator) -> Bool {
    old.kind == new.kind && TransitionRules<AppScreen>(host: .navigationView).structuralChanges(old, new) == 0
  }
}

/// Counts structural changes between two trees (`nil`: some change is never legal).
struct TransitionRules<AppScreen: NavigationScreen> {
  let host: HostProfile

  /// A route's structural style: its style with its `withNavigation`, except that a root's
  /// `withNavigation` is content.
  private func shape(of routes: [Route<AppScreen>]) -> [RouteStyle] {
    routes.enumerated().map { index, route in index == 0 ? .root(withNavigation: false) : route.style }
  }

  func structuralChanges(_ old: Coordinator<AppScreen>, _ new: Coordinator<AppScreen>) -> Int? {
    switch (old, new) {
    case (.stack(let oldRoutes), .stack(let newRoutes)):
      return stackChanges(oldRoutes, newRoutes)
    case (.tabs(let oldTabs, let oldSelected), .tabs(let newTabs, let newSelected)):
      let sameTabSet = oldTabs.count == newTabs.count && zip(oldTabs, newTabs).allSatisfy { $0.kind == $1.kind }
      if sameTabSet {
        var total = oldSelected == newSelected ? 0 : 1
        for (oldTab, newTab) in zip(oldTabs, newTabs) {
          guard let changes = structuralChanges(oldTab, newTab) else { return nil }
          total += changes
        }
        return total
      }
      // The tab set changes: that is the one change; kept tabs stay as they are, new ones are bare.
      for index in newTabs.indices {
        if index < oldTabs.count, oldTabs[index].kind == newTabs[index].kind {
          guard structuralChanges(oldTabs[index], newTabs[index]) == 0 else { return nil }
        } else {
          guard isBare(newTabs[index]) else { return nil }
        }
      }
      return 1
    default:
      return nil
    }
  }

  private func stackChanges(_ old: [Route<AppScreen>], _ new: [Route<AppScreen>]) -> Int? {
    let oldShape = shape(of: old)
    let newShape = shape(of: new)
    if oldShape == newShape {
      var total = 0
      for (oldRoute, newRoute) in zip(old, new) {
        guard let changes = childChanges(oldRoute.child, newRoute.child) else { return nil }
        total += changes
      }
      return total
    }
    // The stack itself changes: legal if some reading of it keeps the surviving routes' children
    // as they are and brings in new routes bare.
    for keptCount in readings(from: oldShape, to: newShape) {
      let keptUnchanged = (0..<keptCount).allSatisfy { childChanges(old[$0].child, new[$0].child) == 0 }
      let addedBare = new[keptCount...].allSatisfy { $0.child.map(isBare) ?? true }
      if keptUnchanged && addedBare { return 1 }
    }
    return nil
  }

  private func childChanges(_ old: Coordinator<AppScreen>?, _ new: Coordinator<AppScreen>?) -> Int? {
    switch (old, new) {
    case (nil, nil): return 0
    case (nil, let appeared?): return isBare(appeared) ? 1 : nil
    case (_?, nil): return 1
    case (let old?, let new?) where old.kind == new.kind: return structuralChanges(old, new)
    case (_?, let replacement?): return isBare(replacement) ? 1 : nil
    }
  }

  /// Every stack of the tree has only its root.
  private func isBare(_ coordinator: Coordinator<AppScreen>) -> Bool {
    switch coordinator {
    case .stack(let routes): routes.count == 1 && (routes[0].child.map(isBare) ?? true)
    case .tabs(let tabs, _): tabs.allSatisfy(isBare)
    }
  }

  /// The ways `new` can come from `old` in one legal stack change, each given as how many of
  /// `old`'s routes stay (the rest of `new` is what appears).
  private func readings(from old: [RouteStyle], to new: [RouteStyle]) -> [Int] {
    switch host {
    case .navigationView:
      return singleChange(from: old, to: new).map { [$0] } ?? []
    case .navigationStack:
      return pushSplits(of: new).compactMap { base in
        base == old ? old.count : singleChange(from: old, to: base)
      }
    case .navigationStack17:
      return pushSplits(of: new).compactMap { base in
        if base.count <= old.count, Array(old.prefix(base.count)) == base { return base.count }
        if base.count == old.count + 1, Array(base.prefix(old.count)) == old, base[old.count].isPresented {
          return old.count
        }
        return nil
      }
    }
  }

  /// `new` without some of its trailing pushes: each way to read `new` as "something, then pushes".
  private func pushSplits(of new: [RouteStyle]) -> [[RouteStyle]] {
    var splits = [new]
    var cut = new.count
    while cut > 1, new[cut - 1].isPush {
      cut -= 1
      splits.append(Array(new.prefix(cut)))
    }
    return splits
  }

  /// The `navigation-view` rule: trailing pushes removed, or one presented route removed with the
  /// pushes above it, or one route appended. Returns how many routes stay.
  private func singleChange(from old: [RouteStyle], to new: [RouteStyle]) -> Int? {
    if new.count < old.count, Array(old.prefix(new.count)) == new {
      let removed = old[new.count...]
      let onlyPushes = removed.allSatisfy(\.isPush)
      let oneLayer = removed.first?.isPresented == true && removed.dropFirst().allSatisfy(\.isPush)
      return onlyPushes || oneLayer ? new.count : nil
    }
    if new.count == old.count + 1, Array(new.prefix(old.count)) == old {
      return old.count
    }
    return nil
  }
}
