import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// The types `--schema` declares are the values' own: every value of every exported row is of
/// its column's type, or empty.
@Suite struct ExportSchemaProperties {
  static func holds(_ value: ExportValue, _ type: ExportTable.ColumnType) -> Bool {
    switch (value, type) {
    case (.null, _), (.text, .text), (.integer, .integer), (.time, .time), (.boolean, .boolean): true
    // A wall-clock time: `2026-11-21T10:30:00.000`, no offset.
    case (.text(let text), .localTime): text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}/) != nil
    default: false
    }
  }

  @Test func everyValueIsOfItsColumnsType() async throws {
    await checkProperty(count: 20, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("t.sqlite"))
      for events in RichSessions.make(count: 8, using: &rng) { try await store.append(contentsOf: events) }
      for table in ExportTable.allCases {
        #expect(table.columnTypes.count == table.columns.count)
        try await store.export(table) { row in
          for (index, value) in row.values.enumerated() where !Self.holds(value, table.columnTypes[index]) {
            Issue.record("\(table.rawValue).\(table.columns[index]) is \(table.columnTypes[index]): \(value)")
          }
        }
      }
    }
  }

  @Test func theSchemaIsACreateTableOfEveryColumn() {
    let schema = ExportTable.screenViews.createTable
    #expect(schema.hasPrefix("CREATE TABLE screen_views (\n  session VARCHAR,\n"))
    #expect(schema.hasSuffix("  journey_id VARCHAR,\n  presentation VARCHAR\n);\n"))
    #expect(schema.contains("  entered_at TIMESTAMPTZ,\n") && schema.contains("  tab BIGINT,\n"))
    #expect(schema.split(separator: "\n").count == ExportTable.screenViews.columns.count + 2)
  }
}
