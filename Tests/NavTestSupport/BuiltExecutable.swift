import Foundation

/// An executable this package builds (`navstore`, `launch-drill`), found beside the running
/// test bundle in the build folder, for tests that run it as a separate process.
public enum BuiltExecutable {
  /// The executable named `name` in the nearest folder above the test bundle that holds it.
  public static func url(named name: String) -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), directory.path != "/" {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name)
  }
}
