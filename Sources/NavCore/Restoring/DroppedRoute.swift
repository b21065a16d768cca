/// A stored route that restoring left out because its screen no longer decodes.
///
/// One record per cut: the routes above the undecodable one (and the flows they host) go with
/// it and are counted in `removedRouteCount`, not listed one by one, since they were never
/// decoded; whether they would have is beside the point once the route below them is gone.
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
  package init(path: CoordinatorPath, index: Int, screenName: String, removedRouteCount: Int, error: WireFormatError) {
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
