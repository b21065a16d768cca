@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools
import Testing

/// The analytics guide describes every column of every export table, in the order the exports
/// write them: a column added to a table without its line in the guide fails here.
@Suite struct ExportColumnDocTests {
  @Test(arguments: ExportTable.allCases)
  func theGuideListsEveryColumnInOrder(_ table: ExportTable) throws {
    let guide = try Docs.text(of: Docs.root.appendingPathComponent("docs/guides/analytics.md"))
    let lines = guide.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let heading = try #require(lines.firstIndex(of: "### \(table.rawValue)"), "no section for \(table.rawValue)")
    // The first table after the heading: its rows' first cells, header and rule left out.
    let rows = lines[heading...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
    let columns = rows.map { row in
      row.split(separator: "|").first.map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) }
        ?? ""
    }
    #expect(columns == table.columns)
  }
}
