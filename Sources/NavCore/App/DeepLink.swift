/// What a launch opens (a notification, a URL, a shortcut): the app's action and the change
/// that opens it, for `NavigationModel`'s `opening:`.
///
/// The model makes the change before it shows anything, so a restore and the link on top of it
/// play as one plan, and records it after the session's start with `action` as its cause.
public struct DeepLink<AppScreen: NavigationScreen> {
  /// The app's action, as `perform` takes it: the change's cause in the history.
  let action: any Encodable
  /// The change, made through the model and its flows as any action's is.
  let change: @MainActor (NavigationModel<AppScreen>) -> Void

  /// A link opened by `action` (`Action.notificationOpened(number: 9)`), whose change `change`
  /// makes through the model it is given.
  public init(_ action: some Encodable, _ change: @escaping @MainActor (NavigationModel<AppScreen>) -> Void) {
    self.action = action
    self.change = change
  }
}
