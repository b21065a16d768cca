import Foundation
import NavTestSupport
import Testing

/// The app guide says its blocks need `NavCore` and `NavPersistence`, and that the sections which
/// need more say so. Each block that names a type of `NavReport` or `NavUpload` stands in a
/// section (from its `##` heading to the block) that tells the reader to add that product.
@Suite struct GuideProductTests {
  @Test func aBlockNeedingAnotherProductIsInASectionThatSaysSo() throws {
    let guide = Docs.root.appendingPathComponent("docs/guides/restoring-in-an-app.md")
    let text = try Docs.text(of: guide)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var checked = 0
    for product in ["NavReport", "NavUpload"] {
      let types = try Self.publicTypes(of: product)
      #expect(!types.isEmpty, "\(product): no public types found")
      for block in CodeBlock.all(in: text) where block.language == "swift" && !SwiftUIBlock.isMarked(block) {
        let used = types.filter { block.text.range(of: #"\b\#($0)\b"#, options: .regularExpression) != nil }
        guard !used.isEmpty else { continue }
        checked += 1
        let opening = block.line - 2  // the fence's index in `lines`
        let heading = lines[..<opening].lastIndex { $0.hasPrefix("## ") } ?? 0
        let section = lines[heading..<opening].joined(separator: "\n")
        #expect(
          section.contains("`\(product)`"),
          "restoring-in-an-app.md:\(block.line) uses \(used.sorted()) of \(product), and its section does not say to add it"
        )
      }
    }
    #expect(checked >= 2, "the report and the uploader blocks were not found")
  }

  /// The names of the public types a module declares.
  static func publicTypes(of module: String) throws -> [String] {
    let folder = Docs.root.appendingPathComponent("Sources/\(module)")
    var names: [String] = []
    for case let file as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? .init()
    where file.pathExtension == "swift" {
      let source = try String(contentsOf: file, encoding: .utf8)
      names += SwiftUIBlockTests.matches(#"public (?:final )?(?:struct|enum|class|actor) (\w+)"#, in: source)
    }
    return names
  }
}
