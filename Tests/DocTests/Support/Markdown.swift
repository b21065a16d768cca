import Foundation

/// The repository's documents, as the tests need them: which files are docs, and their text
/// (`CodeBlock`, in NavTestSupport, reads their fenced blocks).
enum Docs {
  /// The repository's root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .standardizedFileURL

  /// The documents whose Swift a user copies: the README, the guides and the DocC articles.
  /// `docs/reference/` describes other libraries, in their own Swift, and is left out.
  static func userDocuments() throws -> [URL] {
    var documents = [root.appendingPathComponent("README.md")]
    documents += try markdownFiles(under: "docs").filter { !relativePath($0).hasPrefix("docs/reference/") }
    for module in ["NavCore", "NavPersistence", "NavReport", "NavUpload"] {
      documents += try markdownFiles(under: "Sources/\(module)/\(module).docc")
    }
    return documents
  }

  /// Every Markdown file of the repository, but those in hidden or build folders and the fuzz
  /// corpus.
  static func allMarkdownFiles() throws -> [URL] {
    try markdownFiles(under: ".").filter { !relativePath($0).hasPrefix("Fuzz/Corpus/") }
  }

  /// The Markdown files under a folder of the repository (hidden folders skipped), by path.
  static func markdownFiles(under folder: String) throws -> [URL] {
    let base = root.appendingPathComponent(folder).standardizedFileURL
    guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
    var files: [URL] = []
    for case let file as URL in enumerator {
      if file.lastPathComponent.hasPrefix(".") {
        enumerator.skipDescendants()
        continue
      }
      if file.pathExtension == "md" { files.append(file.standardizedFileURL) }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// `file`'s path from the repository's root.
  static func relativePath(_ file: URL) -> String {
    let path = file.standardizedFileURL.path
    return path.hasPrefix(root.path + "/") ? String(path.dropFirst(root.path.count + 1)) : path
  }

  /// A document's text.
  static func text(of file: URL) throws -> String {
    try String(contentsOf: file, encoding: .utf8)
  }
}
