import NavTesting
import Testing

@testable import RestoringApp

/// Support tickets as regression tests: each fixture is a user's session as the app recorded it
/// (`navstore fixture SESSION --out Fixtures/NAME.jsonl`), replayed through today's `App`. A
/// change to the app's navigation that would take the user elsewhere fails here, naming the seq
/// and the action.
@MainActor @Suite struct TicketTests {
  /// Replays a fixture through the app, as it runs.
  func replay(_ fixture: String) throws -> ReplayReport {
    let recorded = try RecordedSession(fixture: fixture)
    return try SessionReplay(recorded, screens: Screen.self, actions: Action.self)
      .run(app: { App($0) }, send: { app, action in app.send(action) })
  }

  /// Before 1.0 the settings section was `section`. A session restored after the update still
  /// opens on the privacy section, and the next actions go where they went.
  @Test func aSessionRestoredAcrossTheUpdateThatRenamedTheSectionScreen() throws {
    let report = try replay("ticket-restore.jsonl")
    #expect(report.restoreChecked && report.restoreSteps >= 1, "\(report)")
    #expect(report.actionsMatched == 4, "\(report)")
  }

  /// The onboarding sheet and the flow it hosts, a back swipe inside it, and the sheet pulled
  /// down by the user.
  @Test func theOnboardingSheetsFlowWithABackSwipe() throws {
    let report = try replay("ticket-onboarding.jsonl")
    #expect(report.actionsMatched == 5 && report.changesApplied == 2, "\(report)")
  }

  /// Both tabs' stacks, tabs tapped, and a notification that closes the onboarding sheet,
  /// selects the feed and shows the number, in the background and back.
  @Test func tabsTheirStacksAndANotificationOverTheOnboarding() throws {
    let report = try replay("ticket-tabs.jsonl")
    #expect(report.actionsMatched == 8 && report.lifecycleEvents == 2, "\(report)")
  }
}
