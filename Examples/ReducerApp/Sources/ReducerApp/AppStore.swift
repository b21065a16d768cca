import NavCore

/// The app's store, as TCA's `Store` is to a reducer: it receives actions and runs the reducer
/// of the flow each is scoped to, through that flow's handle. The model checks, records (the
/// action is the cause) and shows each change; an action that fails changes nothing.
@MainActor final class AppStore {
  let navigation: NavigationModel<Screen>
  private let tabs: TabsFlow<Screen>
  private let mail: StackFlow<Screen>
  private let settings: StackFlow<Screen>

  init(_ navigation: NavigationModel<Screen>) {
    self.navigation = navigation
    tabs = navigation.tabs
    mail = tabs.stack(0)
    settings = tabs.stack(1)
  }

  /// Runs `action`; throws (changing nothing) when a reducer refuses it.
  func send(_ action: AppAction) throws {
    try navigation.perform(action) {
      switch action {
      case .mail(let action):
        try mail.change { try MailReducer.reduce(&$0, action) }
      case .settings(let action):
        try settings.change { try SettingsReducer.reduce(&$0, action) }
      case .tabSelected(let index):
        tabs.select(index)
      case .notificationOpened(let thread):
        // Several flows in one action, recorded as one change with one cause.
        try mail.change { routes in
          try routes.goBackToRoot()
          try routes.push(.thread(id: thread))
        }
        tabs.select(0)
      }
    }
  }
}
