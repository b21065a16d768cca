import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// A session's `local_start` is its first time by the clock its user saw: the offset of its own
/// time zone on that day, summer time included, and nothing when the zone is not one.
@Suite struct LocalStartTests {
  @Test func theFirstTimeIsReadInTheSessionsOwnZoneOnItsDay() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("l.sqlite"))
    // 2026-01-15T09:30:00Z and 2026-07-15T09:30:00Z: Berlin is UTC+1 in winter, UTC+2 in summer.
    let winter: Int64 = 1_768_469_400_000
    let summer: Int64 = 1_784_107_800_000
    let sessions: [(String, Int64, String?)] = [
      ("winter", winter, "Europe/Berlin"), ("summer", summer, "Europe/Berlin"), ("kolkata", winter, "Asia/Kolkata"),
      ("nowhere", winter, "Mars/Olympus_Mons"), ("unsaid", winter, nil),
    ]
    for (id, at, zone) in sessions {
      try store.append(
        AnyEvent(
          session: sessionID(id), at: Timestamp(millisecondsSince1970: at), origin: .app,
          operation: .start(.stack(stack("R+home")), context: SessionContext(osName: "iOS", timeZone: zone))))
    }
    var starts: [String: ExportValue] = [:]
    let columns = ExportTable.sessions.columns
    try store.export(.sessions) { row in
      let values = Dictionary(uniqueKeysWithValues: zip(columns, row.values))
      if case .text(let id)? = values["session"] { starts[id] = values["local_start"] }
    }
    #expect(starts["winter"] == .text("2026-01-15T10:30:00.000"))
    #expect(starts["summer"] == .text("2026-07-15T11:30:00.000"))
    #expect(starts["kolkata"] == .text("2026-01-15T15:00:00.000"), "half-hour offsets too")
    #expect(starts["nowhere"] == .null && starts["unsaid"] == .null)
  }
}
