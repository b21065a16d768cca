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

  /// A folder for the whole run of the tests (a suite's fixtures, written once and kept in a
  /// static, which never ends, so `deinit` never runs): removed when the test process exits.
  public static func forTheRun() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    RunFolders.keep(folder.url)
    return folder
  }
}

/// The folders `TemporaryFolder.forTheRun()` made, removed at the process's exit.
private enum RunFolders {
  private final class Kept: @unchecked Sendable {
    let lock = NSLock()
    var urls: [URL] = []
  }

  private static let kept = Kept()
  private static let removedAtExit: Void = {
    atexit {
      RunFolders.kept.lock.lock()
      defer { RunFolders.kept.lock.unlock() }
      for url in RunFolders.kept.urls { try? FileManager.default.removeItem(at: url) }
    }
  }()

  static func keep(_ url: URL) {
    _ = removedAtExit
    kept.lock.lock()
    defer { kept.lock.unlock() }
    kept.urls.append(url)
  }
}
