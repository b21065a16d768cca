import NavTesting
import Testing

@testable import ReducerApp

/// Support tickets as regression tests: each fixture is a user's session as the app recorded it
/// (`navstore fixture SESSION --out Fixtures/NAME.jsonl`), replayed through today's reducers.
/// A change to the app's navigation logic that would take the user elsewhere fails here, naming
/// the seq and the action.
@MainActor @Suite struct TicketTests {
  /// Replays a fixture through the app's store and its reducers, as the app runs them.
  func replay(_ fixture: String) throws -> ReplayReport {
    let recorded = try RecordedSession(fixture: fixture)
    return try SessionReplay(recorded, screens: Screen.self, actions: AppAction.self)
      .run(app: { AppStore($0) }, send: { store, action in try store.send(action) })
  }

  /// Version 1 called the thread screen `conversation`. A user's session restored after the
  /// update still opens on the thread, and replying, sending and going back work from there.
  @Test func aSessionRestoredAcrossTheUpdateThatRenamedTheThreadScreen() throws {
    let report = try replay("ticket-restore.jsonl")
    #expect(report.restoreChecked && report.restoreSteps > 1, "\(report)")
    #expect(report.actionsMatched == 5, "\(report)")
  }

  /// A reply in a sheet with navigation, a back swipe, and a sheet pulled down by the user.
  @Test func aSheetWithNavigationAndABackSwipe() throws {
    let report = try replay("ticket-sheet.jsonl")
    #expect(report.actionsMatched == 6 && report.changesApplied == 2, "\(report)")
  }

  /// Both tabs' flows, a tab tapped by the user, and a notification that closes the reply
  /// sheet and opens another thread, in the background and back.
  @Test func tabsAndTheirFlowsWithANotification() throws {
    let report = try replay("ticket-tabs.jsonl")
    #expect(report.actionsMatched == 8 && report.changesApplied == 2 && report.lifecycleEvents == 2, "\(report)")
  }
}
