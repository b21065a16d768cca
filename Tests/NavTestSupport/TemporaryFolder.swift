import Foundation

/// A fresh folder for one test's files, removed when the test ends.
public final class TemporaryFolder: Sendable {
  /// The folder.
  public let url: URL

  /// Creates an empty folder in the system's temporary directory.
  public init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("navstore-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The path of a file in the folder.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
