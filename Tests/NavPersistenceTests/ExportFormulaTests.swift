import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// CSV exports are safe to open in a spreadsheet: a text field that would begin a formula
/// (`=`, `+`, `-`, `@`, a tab, a carriage return) is written quoted and begins with `'`, as
/// OWASP's rule for CSV injection says; every other field is written as before, and JSON Lines
/// keep every value byte for byte.
@Suite struct ExportFormulaTests {
  /// The value a spreadsheet or an RFC 4180 reader reads from one field.
  static func read(_ field: String) -> String {
    guard field.hasPrefix("\""), field.hasSuffix("\""), field.count >= 2 else { return field }
    return String(field.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
  }

  static let formulaStarts: [Character] = ["=", "+", "-", "@", "\t", "\r"]

  /// Whether `text` begins a formula: by its first byte (a carriage return begins one even
  /// where Swift reads `\r\n` as one character).
  static func beginsAFormula<Text: StringProtocol>(_ text: Text) -> Bool {
    text.utf8.first.map { first in formulaStarts.contains { $0.utf8.first == first } } ?? false
  }

  @Test func aFieldThatWouldBeAFormulaIsTextAndEveryOtherIsAsItWas() async {
    let alphabet: [Character] = Self.formulaStarts + ["a", ",", "\"", "\n", " ", "'", "é", "1"]
    await checkProperty(count: 500, input: Gen.int(in: 0..<alphabet.count).array(of: 0...8)) { letters in
      let text = String(letters.map { alphabet[$0] })
      let field = ExportEncoding.csvField(text)
      let value = Self.read(field)
      if Self.beginsAFormula(text) {
        #expect(value == "'" + text && field.hasPrefix("\"'"), "\(text.debugDescription) as \(field.debugDescription)")
      } else {
        #expect(value == text, "\(text.debugDescription) as \(field.debugDescription)")
      }
      #expect(!Self.beginsAFormula(value))
    }
  }

  @Test func anExportOfHostileScreensOpensAsTextAndItsJSONLinesAreExact() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("s.sqlite"))
    let hostile = #"=HYPERLINK("http://evil.example","refund")"#
    let context = SessionContext(appVersion: "=cmd|' /C calc'!A0", userID: "@user")
    try store.append(
      event("-session", .start(.stack([.root(.string("+home"), withNavigation: true)]), context: context)))
    try store.append(event("-session", .push(.string(hostile)), offset: 1_000))
    for table in ExportTable.allCases {
      var csv: [UInt8] = []
      try store.exportEncoded(table, format: .csv) { csv += $0 }
      let text = String(decoding: csv, as: UTF8.self)
      // No field of any line begins a formula: each one is a number, a time, or text that a
      // spreadsheet shows as it is.
      for line in text.split(separator: "\r\n") {
        for field in line.split(separator: ",", omittingEmptySubsequences: false) {
          #expect(!Self.beginsAFormula(field.first == "\"" ? field.dropFirst() : field[...]), "\(table): \(line)")
        }
      }
      #expect(!text.contains(",=") && !text.contains(",@") && !text.contains(",+"), "\(table): \(text)")
      var jsonl: [UInt8] = []
      guard (try? store.exportEncoded(table, format: .jsonl) { jsonl += $0 }) != nil else { continue }
      let lines = String(decoding: jsonl, as: UTF8.self)
      #expect(!lines.contains("'="), "\(table): JSON Lines are exact")
    }
    var views: [UInt8] = []
    try store.exportEncoded(.screenViews, format: .jsonl) { views += $0 }
    #expect(
      String(decoding: views, as: UTF8.self).contains(#""screen":"=HYPERLINK(\"http://evil.example\",\"refund\")""#))
  }
}
