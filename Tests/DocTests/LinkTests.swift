import Foundation
import Testing

/// Every relative link of every Markdown file in the repository leads somewhere: the file or
/// folder exists, and an anchor names a heading of the target (GitHub's slugs). Checked offline;
/// links with a scheme (`https:`, `mailto:`) and DocC's `<doc:...>` links are not this test's
/// (DocC refuses a broken `<doc:>` when it builds the catalogs).
@Suite struct LinkTests {
  @Test func everyRelativeLinkAndAnchorResolves() throws {
    var checked = 0
    for file in try Docs.allMarkdownFiles() {
      let text = try Docs.text(of: file)
      for link in Self.links(in: text) {
        checked += 1
        let (path, anchor) = Self.split(link.target)
        let target =
          path.isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
        let place = "\(Docs.relativePath(file)):\(link.line): \(link.target)"
        #expect(FileManager.default.fileExists(atPath: target.path), "\(place): no such file")
        guard let anchor, target.pathExtension == "md", FileManager.default.fileExists(atPath: target.path) else {
          continue
        }
        #expect(Self.anchors(in: try Docs.text(of: target)).contains(anchor), "\(place): no heading with that anchor")
      }
    }
    #expect(checked > 50, "no links were found")
  }

  /// The slugs GitHub gives a document's headings, outside code blocks: lower case, spaces as
  /// hyphens, punctuation but `-` and `_` dropped, and `-1`, `-2` for repeats.
  @Test func slugsFollowGitHubsRule() {
    #expect(
      Self.anchors(
        in: "# Add NavStore to an app\n## Time, as the device claimed it\n## `verify`'s output\n## A b\n## A b")
        == ["add-navstore-to-an-app", "time-as-the-device-claimed-it", "verifys-output", "a-b", "a-b-1"])
    #expect(Self.anchors(in: "```sh\n# not a heading\n```\n## Real") == ["real"])
  }

  @Test func linksAreFoundOutsideCodeOnly() {
    let links = Self.links(in: "[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n![d](i.png) [e](https://e.org) [f](#top)")
    #expect(links.map(\.target) == ["x.md", "i.png", "#top"])
  }

  /// The relative links (and images) of a Markdown text, outside code blocks and code spans.
  static func links(in markdown: String) -> [(target: String, line: Int)] {
    var found: [(String, Int)] = []
    var inFence = false
    let pattern = try? NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
    for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("```") {
        inFence.toggle()
        continue
      }
      guard !inFence, let pattern else { continue }
      // Code spans hold examples, not links.
      let text = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .map { $0.offset.isMultiple(of: 2) ? String($0.element) : "" }.joined()
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        guard let range = Range(match.range(at: 1), in: text) else { continue }
        let target = String(text[range])
        if target.contains("://") || target.hasPrefix("mailto:") { continue }
        found.append((target, index + 1))
      }
    }
    return found
  }

  static func split(_ target: String) -> (path: String, anchor: String?) {
    guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
    return (String(target[..<hash]), String(target[target.index(after: hash)...]))
  }

  static func anchors(in markdown: String) -> [String] {
    var slugs: [String] = []
    var seen: [String: Int] = [:]
    var inFence = false
    for line in markdown.split(separator: "\n") {
      if line.hasPrefix("```") { inFence.toggle() }
      guard !inFence, line.hasPrefix("#") else { continue }
      let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
      let base = String(
        title.lowercased().unicodeScalars.compactMap { scalar -> Character? in
          if scalar == " " { return "-" }
          if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar) { return Character(scalar) }
          return nil
        })
      let count = seen[base, default: 0]
      seen[base] = count + 1
      slugs.append(count == 0 ? base : "\(base)-\(count)")
    }
    return slugs
  }
}
