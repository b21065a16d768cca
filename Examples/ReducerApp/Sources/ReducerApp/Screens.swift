import NavCore

/// The app's screens. The mail tab's screen hosts the mail flow's routes (its `child`), as a
/// TCACoordinators parent screen's state holds its child coordinator's routes.
enum Screen: Codable, Hashable, Sendable {
  case tabs
  case mail
  case thread(id: Int)
  case compose(replyTo: Int?)
  case settings
  case signature
}

extension Screen {
  /// The launch state: tabs at the top, each tab a stack that can push.
  static var launchNavigation: Coordinator<Screen> {
    .tabs(
      [
        .stack([.root(.mail, withNavigation: true)]),
        .stack([.root(.settings, withNavigation: true)]),
      ], selected: 0)
  }
}

extension Coordinator {
  /// `/mail/thread`: the screens on the visible path.
  var visiblePath: String { visibleScreen?.path ?? "(nothing)" }
}
