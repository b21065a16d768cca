// swift-format-ignore-file
// (The Swift between "doc begin" and "doc end" is the docs' text, byte for byte.)
import Foundation
import NavCore
import NavPersistence
import NavTestSupport
import NavTesting
import Testing

/// The section "From a ticket to a regression test" of the app guide: the guide's screens and
/// actions, the object its app sends actions to, and the ticket (Fixtures/ticket-4711.jsonl,
/// recorded through `TicketApp` and written by `navstore fixture`): a feed tab, the numbers, a
/// tab tapped, the onboarding sheet, a notification that closes it and shows number 9, a back
/// swipe, the background.
enum TicketScreen: Codable, Hashable, Sendable {
  case mainTabs, feed, settings
  case numbersList, numberDetail(number: Int)
  case onboarding(step: Int)
}

enum TicketAction: Codable, Sendable {
  case appLaunched, numbersTapped, signOutTapped, signedIn
  case notificationOpened(number: Int)
}

@MainActor final class TicketApp {
  let model: NavigationModel<TicketScreen>
  let tabs: TabsFlow<TicketScreen>
  let feed: StackFlow<TicketScreen>
  /// A regression: the notification forgets to close what is presented.
  let keepsSheets: Bool

  init(_ model: NavigationModel<TicketScreen>, keepsSheets: Bool = false) {
    self.model = model
    tabs = model.stack.tabs(hostedBy: 0)
    feed = tabs.stack(0)
    self.keepsSheets = keepsSheets
  }

  /// Sends `action`. (It throws nothing; declared `throws` as an app's send may be.)
  func send(_ action: TicketAction) throws {
    model.perform(action) {
      switch action {
      case .numbersTapped: feed.push(.numbersList)
      case .notificationOpened(let number):
        if !keepsSheets { model.stack.dismissAll() }
        tabs.select(0)
        feed.push(.numberDetail(number: number))
      case .signOutTapped: model.stack.presentSheet(.onboarding(step: 1), withNavigation: true)
      case .appLaunched, .signedIn: break
      }
    }
  }
}

private typealias Screen = TicketScreen
private typealias Action = TicketAction
private typealias App = TicketApp

// doc begin
@Test @MainActor func ticket4711() throws {
  let recorded = try RecordedSession(fixture: "ticket-4711.jsonl")
  try SessionReplay(recorded, screens: Screen.self, actions: Action.self)
    .run(app: { App($0) }, send: { app, action in try app.send(action) })
}
// doc end

@MainActor @Suite struct TicketTestSnippetTests {
  /// What the guide says the test reports when the notification no longer closes the sheet.
  @Test func theRegressionTheGuideShowsIsCaughtAsItSays() throws {
    let recorded = try RecordedSession(fixture: "ticket-4711.jsonl")
    let error = #expect(throws: ReplayError.self) {
      try SessionReplay(recorded, screens: Screen.self, actions: Action.self)
        .run(app: { App($0, keepsSheets: true) }, send: { app, action in try app.send(action) })
    }
    let guide = try Docs.text(of: Docs.root.appendingPathComponent("docs/guides/restoring-in-an-app.md"))
    let shown = try #require(CodeBlock.all(in: guide).first { $0.text.hasPrefix("The replay diverged") },
      "the guide shows no failure; the replay says:\n\(error?.description ?? "nothing")")
    #expect(error?.description == shown.text.trimmingCharacters(in: .newlines))
  }

  /// An action renamed or removed since the ticket is mapped or skipped as the guide shows.
  @Test func aResolutionForRenamedActionsLeavesTheTicketReplaying() throws {
    var replay = SessionReplay(try RecordedSession(fixture: "ticket-4711.jsonl"), screens: Screen.self, actions: Action.self)
    // doc begin
    replay.resolveUndecodable = { cause in
      switch cause.name {
      case "numbersButtonTapped": .replay(.numbersTapped)   // renamed in 2.4
      case "promoShown": .skip                              // removed: its change applied as recorded
      default: .fail
      }
    }
    // doc end
    let report = try replay.run(app: { App($0) }, send: { app, action in try app.send(action) })
    #expect(report.actionsMatched == 3 && report.changesApplied == 2 && report.lifecycleEvents == 1, "\(report)")
  }
}
