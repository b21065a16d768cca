import NavCore

/// The mail flow's reducer: pure, over the flow's own routes, like a TCACoordinators child
/// coordinator's. It knows nothing of tabs, paths, stores or recording.
enum MailReducer {
  enum Action: Codable, Sendable {
    case threadTapped(id: Int)
    case replyTapped
    case sendTapped
    case backTapped
  }

  static func reduce(_ routes: inout [Route<Screen>], _ action: Action) throws {
    switch action {
    case .threadTapped(let id):
      try routes.push(.thread(id: id))
    case .replyTapped:
      guard case .thread(let id)? = routes.last?.screen else { throw ReducerError.nothingToReplyTo }
      try routes.presentSheet(.compose(replyTo: id), withNavigation: true)
    case .sendTapped:
      try routes.dismiss()
    case .backTapped:
      try routes.pop()  // a sheet is not popped: refused, the routes stay as they are
    }
  }
}

/// The settings flow's reducer.
enum SettingsReducer {
  enum Action: Codable, Sendable {
    case signatureTapped
    case doneTapped
  }

  static func reduce(_ routes: inout [Route<Screen>], _ action: Action) throws {
    switch action {
    case .signatureTapped: try routes.push(.signature)
    case .doneTapped: try routes.popToRoot()
    }
  }
}

/// The app's actions: each flow's, scoped, and the app's own.
enum AppAction: Codable, Sendable {
  case mail(MailReducer.Action)
  case settings(SettingsReducer.Action)
  case tabSelected(Int)
  case notificationOpened(thread: Int)
}

/// A reducer's own refusal.
enum ReducerError: Error {
  case nothingToReplyTo
}
