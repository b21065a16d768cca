import Foundation

/// Runs the built `navstore` binary as a separate process, as scripts and people do.
struct NavStoreProcess {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
  }

  /// The binary next to the test bundle in the build folder.
  static var binary: URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("navstore").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("navstore")
  }

  static func run(_ arguments: [String], stdin: String = "", in directory: URL? = nil) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(stdin.utf8))
    try input.fileHandleForWriting.close()
    let stdoutData = output.fileHandleForReading.readDataToEndOfFile()
    let stderrData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self))
  }
}
