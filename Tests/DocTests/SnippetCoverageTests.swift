import Foundation
import NavTestSupport
import Testing

/// Every Swift block of the README, the guides and the DocC articles is compiled and run by this
/// test target: it stands in one of the target's files, line for line, between `// doc begin`
/// and `// doc end`, with the setup it assumes before it and checks of what it claims after it.
/// An excerpt marks what it leaves out with a `// ...` line; each part between must be there
/// whole. The exceptions are the README's `Package.swift` excerpt, which
/// `ManifestSnippetTests` checks against the package itself, and blocks of SwiftUI, which
/// Linux cannot compile: they open with one of `SwiftUIBlock.markers`, so a reader sees they are not
/// compiled, and `SwiftUIBlockTests` holds them to the API they use.
@Suite struct SnippetCoverageTests {
  @Test func everySwiftBlockOfTheDocsIsCompiledHere() throws {
    let compiled = try Self.compiledLines()
    var checked = 0
    for document in try Docs.userDocuments() {
      for block in CodeBlock.all(in: try Docs.text(of: document)) where block.language == "swift" {
        if block.text.hasPrefix("// Package.swift") || SwiftUIBlock.isMarked(block) { continue }
        checked += 1
        let parts = Self.normalized(block.text).split { $0.hasPrefix("// ...") }.map(Array.init)
        #expect(
          parts.allSatisfy { Self.contains(compiled, $0) },
          "\(Docs.relativePath(document)):\(block.line) is not compiled by Tests/DocTests:\n\(block.text)")
      }
    }
    #expect(checked >= 30, "the docs' Swift blocks were not found")
  }

  /// The lines between the markers in this target's files, normalized, each region apart.
  static func compiledLines() throws -> [String] {
    let folder = Docs.root.appendingPathComponent("Tests/DocTests")
    var lines: [String] = []
    for case let file as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? .init()
    where file.pathExtension == "swift" {
      var inside = false
      for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed == "// doc begin" {
          inside = true
        } else if trimmed == "// doc end" {
          inside = false
          lines.append("// doc end")  // keeps two regions from joining into one match
        } else if inside {
          lines += normalized(String(line))
        }
      }
    }
    return lines
  }

  /// The lines, trimmed, with runs of spaces made one; blank lines and imports dropped.
  static func normalized(_ text: String) -> [String] {
    text.split(separator: "\n").map { line in
      line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
    .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
  }

  static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    return (0...(haystack.count - needle.count)).contains { start in
      Array(haystack[start..<start + needle.count]) == needle
    }
  }
}
