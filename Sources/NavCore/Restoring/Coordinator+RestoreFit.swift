/// Whether a restored session's first state can be what a launch restored from its source's
/// state, checked where the store holds the source.
///
/// A restore keeps the source's shape, less what it dropped, and may change the screens: an
/// update decodes them its own way (a renamed case, a field gained), and a screen that no longer
/// decodes goes with everything standing on it. So the restored state *fits* the source when
/// every coordinator of it lies where the source has one of the same kind: a stack with no more
/// routes than the source's, each in the same style, hosting a flow only where the source's route
/// hosted one (a flow may be gone); tabs that are the source's tabs in order, some of them
/// perhaps gone. A launch that keeps only the roots fits too. Screens are not compared.
extension Coordinator where AppScreen == JSONValue {
  /// The first place where `restored` does not fit as a restore of this state, or `nil` when
  /// it fits.
  package func misfit(ofRestored restored: AnyCoordinator) -> RestoreMisfit? {
    Self.misfit(restored, source: self, at: .top)
  }

  private static func misfit(_ restored: AnyCoordinator, source: AnyCoordinator, at path: CoordinatorPath)
    -> RestoreMisfit?
  {
    switch (restored, source) {
    case (.stack(let routes), .stack(let sourceRoutes)):
      guard routes.count <= sourceRoutes.count else {
        return RestoreMisfit(
          path: path,
          problem: "has \(routes.count) routes where the source's stack had \(sourceRoutes.count)")
      }
      for (index, (route, sourceRoute)) in zip(routes, sourceRoutes).enumerated() {
        guard route.style == sourceRoute.style else {
          return RestoreMisfit(
            path: path, problem: "route \(index) is a \(route.style) where the source's was a \(sourceRoute.style)")
        }
        guard let child = route.child else { continue }
        guard let sourceChild = sourceRoute.child else {
          return RestoreMisfit(path: path, problem: "route \(index) hosts a flow where the source's hosted none")
        }
        if let misfit = misfit(child, source: sourceChild, at: path.appending(.route(index))) { return misfit }
      }
      return nil
    case (.tabs(let tabs, _), .tabs(let sourceTabs, _)):
      // Each tab is the first of the source's tabs after the one before it that it fits: if the
      // tabs fit the source's in order at all, they fit that way.
      var next = 0
      for (index, tab) in tabs.enumerated() {
        var matched = false
        while next < sourceTabs.count, !matched {
          matched = misfit(tab, source: sourceTabs[next], at: path.appending(.tab(next))) == nil
          next += 1
        }
        guard matched else {
          return RestoreMisfit(
            path: path, problem: "tab \(index) is none of the source's \(sourceTabs.count) tabs, in their order")
        }
      }
      return nil
    case (.stack, .tabs):
      return RestoreMisfit(path: path, problem: "is a stack where the source had tabs")
    case (.tabs, .stack):
      return RestoreMisfit(path: path, problem: "is tabs where the source had a stack")
    }
  }
}

/// Where a restored state does not fit its source's (`Coordinator.misfit(ofRestored:)`): the
/// coordinator, and what about it could not come from the source.
package struct RestoreMisfit: Hashable, Sendable {
  /// The coordinator of the restored state.
  package var path: CoordinatorPath
  /// What about it, in words for a log line.
  package var problem: String

  /// The rejection of a start restoring `source` with this misfit.
  package func rejection(restoring source: SessionLink) -> NavigationError {
    NavigationError(
      operation: "start", path: .top, reason: .restoreDoesNotFitSource(source: source, at: path, problem: problem))
  }
}
