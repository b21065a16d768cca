import Foundation
import NavTestSupport
import Testing

/// A block of SwiftUI in the docs: Linux has no SwiftUI, so it is not compiled. It says so in
/// its first line, and the test below holds what it uses of NavStore to the library.
enum SwiftUIBlock {
  static let marker = "// SwiftUI, on Apple platforms only: not compiled by the tests, which run on Linux."

  /// Every SwiftUI block of the docs.
  static func all() throws -> [(document: URL, block: CodeBlock)] {
    try Docs.userDocuments().flatMap { document in
      CodeBlock.all(in: try Docs.text(of: document)).filter { $0.text.hasPrefix(marker) }.map { (document, $0) }
    }
  }
}

@Suite struct SwiftUIBlockTests {
  /// The members the blocks call on flows and the model (`flow.shownRoutes`, `tabs.stack(0)`),
  /// each declared public in `Sources/NavCore/App`; and the types they name, declared there.
  @Test func whatTheSwiftUIBlocksUseOfNavStoreExists() throws {
    let blocks = try SwiftUIBlock.all()
    #expect(!blocks.isEmpty, "the app guide's SwiftUI block was not found")
    let folder = Docs.root.appendingPathComponent("Sources/NavCore/App")
    let sources = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    for (document, block) in blocks {
      let members = Self.matches(#"\b(?:flow|tabs|model)\.([a-zA-Z]+)"#, in: block.text)
      #expect(members.count >= 3, "\(Docs.relativePath(document)):\(block.line): no flow calls found")
      for member in Set(members) {
        #expect(
          sources.contains("public var \(member)") || sources.contains("public func \(member)"),
          "\(Docs.relativePath(document)):\(block.line) uses '\(member)', which NavCore's App folder does not declare")
      }
      for type in Set(Self.matches(#"\b((?:Stack|Tabs)Flow|NavigationModel)<"#, in: block.text)) {
        #expect(sources.contains("public struct \(type)") || sources.contains("public final class \(type)"))
      }
    }
  }

  static func matches(_ pattern: String, in text: String) -> [String] {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: range).compactMap { match in
      Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
  }
}
