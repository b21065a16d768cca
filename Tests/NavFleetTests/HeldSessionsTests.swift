@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

@testable import NavFleet

/// The sessions a PostgreSQL transaction holds for a group of uploads decide each upload as a
/// transaction of its own would, without a database: what an earlier upload of the group wrote
/// is what a later one finds.
@Suite struct HeldSessionsTests {
  /// A session held empty, as `hold` makes one the database does not have yet.
  func held(_ session: SessionID) -> HeldSessions {
    let appender = SessionAppender(
      session: session, totals: SessionTotals(), state: nil, storedRows: [:], forgottenAt: nil, snapshotInterval: 5)
    return HeldSessions(app: .default, appenders: [session: appender], owners: [:])
  }

  /// A session started by an earlier upload of the group belongs to the device its start names:
  /// a later upload unsigned, or signed by another key, is refused as it would be once the start
  /// was stored; one signed by that device goes on.
  @Test func aSessionStartedEarlierInTheGroupBelongsToItsDevice() throws {
    let key = try #require(DeviceKey(rawRepresentation: Array(repeating: 7, count: 32)))
    let other = try #require(DeviceKey(rawRepresentation: Array(repeating: 9, count: 32)))
    var context = SessionContext(appVersion: "1.0")
    context.deviceKey = key
    let start = event("owned", .start(.stack(stack("R+home")), context: context), seq: 1)
    let push = event("owned", .push("detail"), offset: 10, seq: 2)
    var sessions = held(start.session)

    let first = try UploadDecision.decide([.event(number: 1, start)], signedBy: key, in: &sessions)
    #expect(first.accepted == 1)
    for signer in [nil, other] {
      let refused = try UploadDecision.decide([.event(number: 1, push)], signedBy: signer, in: &sessions)
      #expect(refused.rejected.map(\.rejection.reason) == [.wrongDevice], "signed by \(String(describing: signer))")
    }
    let owned = try UploadDecision.decide([.event(number: 1, push)], signedBy: key, in: &sessions)
    #expect(owned.accepted == 1 && owned.heads[start.session]?.seq == 2)
  }

  /// A session whose start names no device takes any upload's lines, in the group as alone.
  @Test func aSessionWithoutADeviceTakesAnyUpload() throws {
    let start = event("open", .start(.stack(stack("R+home"))), seq: 1)
    let push = event("open", .push("detail"), offset: 10, seq: 2)
    var sessions = held(start.session)
    #expect(try UploadDecision.decide([.event(number: 1, start)], signedBy: nil, in: &sessions).accepted == 1)
    let key = try #require(DeviceKey(rawRepresentation: Array(repeating: 7, count: 32)))
    #expect(try UploadDecision.decide([.event(number: 1, push)], signedBy: key, in: &sessions).accepted == 1)
  }
}
