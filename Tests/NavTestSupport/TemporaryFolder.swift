import Foundation
import NavCore

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
  private static let kept = Protected<[URL]>([])
  private static let removedAtExit: Void = {
    atexit {
      for url in RunFolders.kept.withLock({ $0 }) { try? FileManager.default.removeItem(at: url) }
    }
  }()

  static func keep(_ url: URL) {
    _ = removedAtExit
    kept.withLock { $0.append(url) }
  }
}
