/// The flow a route or a tab holds, as a handle of the right kind: what a recursive host view
/// switches over to show a nested stack or nested tabs.
@MainActor
public enum HostedFlow<Screen: NavigationScreen> {
  /// A stack, shown through its layers (``StackFlow/baseLayer``).
  case stack(StackFlow<Screen>)
  /// Tabs, shown as a tab bar bound to ``TabsFlow/selection``.
  case tabs(TabsFlow<Screen>)
}
