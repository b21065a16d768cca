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
