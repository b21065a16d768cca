import Foundation
import NavTestSupport

/// A running `upload-drill`: one app launch uploading a store, which a drill lets finish or
/// kills as the system kills an app.
final class UploadDrillProcess {
  let process = Process()
  private let output = Pipe()
  /// The first line it said (`uploading N events of M sessions`), once it has begun.
  private(set) var firstLine = ""

  /// Launches `upload-drill STORE COLLECTOR TOKEN OPTIONS...` in `folder` and waits until it
  /// says it has begun.
  init(store: String, collector: String, token: String, options: [String] = [], in folder: URL) throws {
    process.executableURL = BuiltExecutable.url(named: "upload-drill")
    process.arguments = [store, collector, token] + options
    process.currentDirectoryURL = folder
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    firstLine = output.fileHandleForReading.firstLine()
  }

  /// Kills it at once (SIGKILL), mid-whatever it was doing.
  func kill() {
    Glibc.kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  /// Waits up to `seconds` for it to end by itself (killing it after that); its exit status and
  /// what it said after its first line.
  func finish(within seconds: Double) -> (status: Int32, said: String) {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning { kill() }
    process.waitUntilExit()
    let rest = output.fileHandleForReading.readDataToEndOfFile()
    return (process.terminationStatus, String(decoding: rest, as: UTF8.self))
  }

  /// The peak memory it reported on finishing (`peak N KiB`), in KiB.
  static func peakKiB(in said: String) -> Int? {
    guard let range = said.range(of: "peak ") else { return nil }
    return Int(said[range.upperBound...].prefix { $0.isNumber })
  }

  deinit {
    if process.isRunning { kill() }
  }
}
