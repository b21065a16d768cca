/// What restoring does with a stored screen the app can no longer decode.
///
/// Apps change their screen types between versions: a case is renamed or removed, a field is
/// added without a default. A session saved by the old version still holds the old screens.
public enum RestorePolicy: Hashable, Sendable {
  /// The screen's route goes, with every route above it in its stack and the flows those routes
  /// host; a stack whose root goes takes its whole coordinator with it (a hosted flow leaves its
  /// route without a child; a tab leaves its tabs). What is left is well-formed and listed as
  /// dropped. The default: an app would rather reopen slightly shallower than not at all.
  case dropUndecodable
  /// Any screen that does not decode fails the restore, naming the first one.
  case strict
}

/// A stored route that restoring left out because its screen no longer decodes.
public struct DroppedRoute: Hashable, Sendable, CustomStringConvertible {
  /// The coordinator the route was in, in the stored state.
  public var path: CoordinatorPath
  /// The route's index in that stack. The routes above it went too; index 0 (the root) means
  /// the whole coordinator at `path` went.
  public var index: Int
  /// The stored screen's name (the wire format's naming rule), for messages and logs.
  public var screenName: String
  /// How many routes went because of this one: itself, the routes above it, and every route of
  /// the flows they hosted.
  public var removedRouteCount: Int
  /// Why the screen does not decode, as the decoder said it.
  public var error: WireFormatError

  /// Creates a record of a dropped route.
  public init(path: CoordinatorPath, index: Int, screenName: String, removedRouteCount: Int, error: WireFormatError) {
    self.path = path
    self.index = index
    self.screenName = screenName
    self.removedRouteCount = removedRouteCount
    self.error = error
  }

  /// `route 3 (numberDetail) in the top coordinator, with 2 more routes: <error>`.
  public var description: String {
    let more = removedRouteCount - 1
    let with = more > 0 ? ", with \(more) more route\(more == 1 ? "" : "s")" : ""
    return "route \(index) (\(screenName)) in \(path)\(with): \(error)"
  }
}

/// A stored state decoded into the app's screen type, and what could not be.
public struct RestoredState<Screen: NavigationScreen>: Hashable, Sendable {
  /// The state to show: the stored one, minus the dropped routes.
  public var state: Coordinator<Screen>
  /// Each undecodable screen that cut something, in the order the tree is read (a stack's
  /// routes from the root up, each route's hosted flow before the route above it; tabs in
  /// order). Empty when everything decoded.
  public var dropped: [DroppedRoute]

  /// Creates a restored state.
  public init(state: Coordinator<Screen>, dropped: [DroppedRoute]) {
    self.state = state
    self.dropped = dropped
  }
}

/// Why a stored state could not be restored at all.
public enum RestoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Under `.strict`, the first screen that does not decode.
  case undecodableScreen(DroppedRoute)
  /// Even the top coordinator's root does not decode (or, for tabs, no tab's root does), so
  /// nothing of the state is left: the app should start from its own launch state.
  case nothingRestorable(DroppedRoute)

  public var description: String {
    switch self {
    case .undecodableScreen(let route):
      "a stored screen no longer decodes: \(route)"
    case .nothingRestorable(let route):
      "nothing can be restored: the top coordinator's root no longer decodes (\(route)); start from the app's launch state"
    }
  }
}
