/// The flow a route or a tab holds, as a handle of the right kind: what a recursive host view
/// switches over to show a nested stack or nested tabs.
@MainActor
public enum HostedFlow<AppScreen: NavigationScreen> {
  /// A stack, shown through its layers (``StackFlow/baseLayer``).
  case stack(StackFlow<AppScreen>)
  /// Tabs, shown as a tab bar bound to ``TabsFlow/selection``.
  case tabs(TabsFlow<AppScreen>)

  /// The handle to the flow of `kind` one `step` below `anchor`, found in what `model` shows.
  init(kind: CoordinatorKind, at step: PathStep, below anchor: FlowAnchor, of model: NavigationModel<AppScreen>) {
    let child = anchor.appending(step, kind: kind, in: model.shown, renames: model.renames)
    switch kind {
    case .stack: self = .stack(StackFlow(model: model, anchor: child))
    case .tabs: self = .tabs(TabsFlow(model: model, anchor: child))
    }
  }
}
