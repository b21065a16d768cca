/// Why a `NavigationModel` (or one of its flows) did not make a change, or made it in part.
/// A refused change (`rejected`, `flowGone`, `unplayable`) leaves the state as it was: nothing
/// shown, nothing recorded. Two cases say what was done instead: an initial state that cannot
/// be played is shown at once, and a change whose cause cannot be encoded is made without it.
public enum NavigationModelError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The operation is impossible in the flow's current state (popping a sheet, going back past
  /// the root, pushing where there is no navigation).
  case rejected(NavigationError)
  /// The flow a handle was obtained for is no longer in the tree: the screen or tab hosting it
  /// was removed. `path` is where the flow was when the handle was made; the handle never acts
  /// on whatever has taken that place since.
  case flowGone(kind: CoordinatorKind, path: CoordinatorPath)
  /// The handle was asked for a flow that was not there when it was made (a screen the flow
  /// did not show, a route that hosts nothing, a tab past the last); `asked` says where it was
  /// looked for.
  case flowNotFound(kind: CoordinatorKind, asked: String)
  /// The new state cannot be shown: no sequence of steps reaches it (the top coordinator
  /// changing kind, a malformed state written by hand).
  case unplayable(PlanError)
  /// The action given as a cause cannot be written as JSON (a NaN, an infinity, an integer
  /// beyond 2^53). The change itself was made and recorded, without a cause.
  case causeNotEncodable(WireFormatError)

  public var description: String {
    switch self {
    case .rejected(let error):
      "\(error)"
    case .flowGone(let kind, let path):
      "the \(kind) flow that was at \(path) is gone: the screen or tab hosting it was removed"
    case .flowNotFound(let kind, let asked):
      "there is no \(kind) flow \(asked)"
    case .unplayable(let error):
      "\(error)"
    case .causeNotEncodable(let error):
      "the action cannot be kept as the change's cause: \(error)"
    }
  }
}
