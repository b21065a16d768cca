import Foundation
import NavTestSupport
import Testing

/// A block of SwiftUI or UIKit in the docs: Linux has neither, so it is not compiled. It says so
/// in its first line, and the test below holds what it uses of NavStore to the library.
enum SwiftUIBlock {
  static let markers = [
    "// SwiftUI, on Apple platforms only: not compiled by the tests, which run on Linux.",
    "// UIKit, on Apple platforms only: the shape of a host that does not observe the model.",
  ]

  /// Whether `block` is one of them.
  static func isMarked(_ block: CodeBlock) -> Bool {
    markers.contains { block.text.hasPrefix($0) }
  }

  /// Every such block of the docs.
  static func all() throws -> [(document: URL, block: CodeBlock)] {
    try Docs.userDocuments().flatMap { document in
      CodeBlock.all(in: try Docs.text(of: document)).filter(isMarked).map { (document, $0) }
    }
  }
}

@Suite struct SwiftUIBlockTests {
  /// The members the blocks call on flows, layers, routes and the model (`layer.path`,
  /// `tabs.selection`), each declared public in `Sources/NavCore/App` or `Hosting`; and the
  /// types they name, declared there.
  @Test func whatTheSwiftUIBlocksUseOfNavStoreExists() throws {
    let blocks = try SwiftUIBlock.all()
    #expect(!blocks.isEmpty, "the app guide's SwiftUI block was not found")
    let sources = try ["App", "Hosting"].flatMap { name in
      let folder = Docs.root.appendingPathComponent("Sources/NavCore/\(name)")
      return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        .map { try String(contentsOf: $0, encoding: .utf8) }
    }.joined(separator: "\n")
    for (document, block) in blocks {
      let members = Self.matches(#"\b(?:flow|tabs|model|layer|route)\??\.([a-zA-Z]+)"#, in: block.text)
      #expect(members.count >= 3, "\(Docs.relativePath(document)):\(block.line): no flow calls found")
      for member in Set(members) {
        #expect(
          ["var", "let", "func"].contains { sources.contains("public \($0) \(member)") },
          "\(Docs.relativePath(document)):\(block.line) uses '\(member)', which NavCore's App and Hosting folders do not declare"
        )
      }
      for type in Set(Self.matches(#"\b((?:Stack|Tabs)Flow|NavigationModel|Shown(?:Layer|Route))<"#, in: block.text)) {
        #expect(
          sources.contains("public struct \(type)") || sources.contains("public final class \(type)"),
          "\(Docs.relativePath(document)):\(block.line) names '\(type)', which NavCore does not declare")
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
