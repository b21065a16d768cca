/// Where a session is in the app's lifecycle: what its `background`, `foreground` and `end`
/// events say, in the order they came.
///
/// A session begins in the foreground. `background` and `foreground` alternate, navigation
/// goes on in either (a notification handled in the background may change the state), and
/// after `end` nothing may follow. Time counts as seen (screen views, a session's foreground
/// time) only in the foreground.
public enum SessionPhase: String, Hashable, Sendable, CaseIterable {
  /// The app is on screen.
  case foreground
  /// The app left the screen; its state is kept.
  case background
  /// The session is over.
  case ended

  /// The phase after `operation`, or why `operation` cannot come now: nothing after `end`,
  /// `background` only in the foreground, `foreground` only in the background. Every other
  /// operation keeps the phase.
  package func after<AppScreen>(_ operation: NavigationOperation<AppScreen>) throws(NavigationError) -> SessionPhase {
    try after(operation.kind.operationName, path: operation.path)
  }

  /// `after(_:)` for untyped screens, compiled here: the store checks every event it appends
  /// or verifies, and a generic call from another module would look up type metadata each time.
  package func after(_ operation: AnyOperation) throws(NavigationError) -> SessionPhase {
    try after(operation.kind.operationName, path: operation.path)
  }

  private func after(_ name: OperationName, path: CoordinatorPath) throws(NavigationError) -> SessionPhase {
    let reason: NavigationError.Reason
    switch (self, name) {
    case (.ended, _): reason = .sessionEnded
    case (.foreground, .background): return .background
    case (.background, .foreground): return .foreground
    case (.foreground, .foreground), (.background, .background): reason = .alreadyIn(self)
    case (_, .end): return .ended
    default: return self
    }
    throw NavigationError(operation: name.rawValue, path: path, reason: reason)
  }
}
