import NavCore
import NavTestSupport
import NavTesting
import XCTest

/// The replay needs no test framework of its own: under XCTest, a ticket that replays passes and
/// a regression fails with the replay's message.
final class ReplayUnderXCTest: XCTestCase {
  @MainActor func testATicketReplaysAndARegressionFailsWithTheReplaysMessage() async throws {
    let folder = try TemporaryFolder()
    let recorded = try await TwoTabs.record(
      ReplayFailureTests.script, in: folder, session: try SessionID("ticket"))
    let replay = SessionReplay<TwoTabs.Screen, TwoTabs.Action>(
      try RecordedSession(store: recorded.store, session: recorded.session))
    XCTAssertNoThrow(try replay.run(app: { $0 }, send: { model, action in try TwoTabs.send(action, to: model) }))
    XCTAssertThrowsError(
      try replay.run(app: { $0 }, send: { model, action in try TwoTabs.send(action, to: model, mutation: .missingPop) })
    ) { error in
      XCTAssertTrue("\(error)".hasPrefix("The replay diverged at seq 5, after the action back"), "\(error)")
    }
  }
}
