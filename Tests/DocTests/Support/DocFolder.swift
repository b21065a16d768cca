import Foundation
import Synchronization

/// A fresh folder for one test's files, removed when the test ends.
final class DocFolder: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-docs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Lines written from any thread or task, read back by the test.
final class LineLog: Sendable {
  private let lines = Mutex<[String]>([])

  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}
