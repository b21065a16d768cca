import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// An export narrowed by time (`until`) and by what sessions ran on (app version, device) holds
/// exactly the rows of the whole export that those filters name, in the same order, on every
/// table: a filter leaves rows out and never changes one.
@Suite struct ExportFilterProperties {
  /// The time each table's `until` compares: the row's own moment, or a session's first.
  static let timeColumn: [ExportTable: String] = [
    .events: "occurred_at", .sessions: "first_at", .screenViews: "entered_at", .transitions: "occurred_at",
  ]

  static func rows(_ store: SessionStore, _ table: ExportTable, _ filter: ExportFilter) throws -> [[ExportValue]] {
    var rows: [[ExportValue]] = []
    try store.export(table, filter: filter) { rows.append($0.values) }
    return rows
  }

  static func value(_ row: [ExportValue], _ column: String, of table: ExportTable) -> ExportValue? {
    table.columns.firstIndex(of: column).map { row[$0] }
  }

  @Test func aNarrowedExportIsTheWholeOneWithTheRowsItNames() async throws {
    await checkProperty(count: 30, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let sessions = RichSessions.make(count: 10, using: &rng)
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("f.sqlite"))
      for events in sessions { try await store.append(contentsOf: events) }
      var contexts: [String: SessionContext?] = [:]
      for events in sessions {
        contexts[events[0].session.rawValue] = try await store.read { try $0.summary(of: events[0].session) }.context
      }
      // A version and a device some sessions have (or none has), and a moment among the events.
      let times = sessions.flatMap { $0.map(\.at) }
      let until = times.randomElement(using: &rng)
      let version = ["2.0", "2.3", "2.6", "9.9", nil].randomElement(using: &rng) ?? nil
      let device = ["iPhone15,0", "iPhone15,3", "iPhone15,9", nil].randomElement(using: &rng) ?? nil
      let filter = ExportFilter(until: until, appVersion: version, deviceModel: device)
      for table in ExportTable.allCases {
        let whole = try Self.rows(store, table, ExportFilter())
        let expected = whole.filter { row in
          guard case .text(let session)? = Self.value(row, "session", of: table) else { return false }
          let context = contexts[session] ?? nil
          if let version, context?.appVersion != version { return false }
          if let device, context?.deviceModel != device { return false }
          if let until, case .time(let at)? = Self.value(row, Self.timeColumn[table] ?? "", of: table), at > until {
            return false
          }
          return true
        }
        let got = try Self.rows(store, table, filter)
        #expect(got == expected, "\(table) until \(String(describing: until)) \(version ?? "-") \(device ?? "-")")
      }
    }
  }
}
