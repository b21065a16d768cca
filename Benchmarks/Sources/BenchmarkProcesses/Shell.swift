import Foundation

/// Child processes run to their end.
public enum Shell {
  /// Runs `executable` with `arguments`; throws with its standard error when it fails.
  @discardableResult
  public static func run(_ executable: URL, _ arguments: [String], output: Bool = false) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let out = Pipe()
    let errors = Pipe()
    process.standardOutput = output ? out : FileHandle(forWritingAtPath: "/dev/null")
    process.standardError = errors
    try process.run()
    let text = output ? out.fileHandleForReading.readDataToEndOfFile() : Data()
    let problem = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ProcessFailure(
        "\(executable.lastPathComponent) \(arguments.first ?? "") failed: \(String(decoding: problem, as: UTF8.self))")
    }
    return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A command found on the PATH, through `env`.
  @discardableResult
  public static func tool(_ name: String, _ arguments: [String], output: Bool = false) throws -> String {
    try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, output: output)
  }
}

/// A child process that failed or said nothing expected, in one line.
public struct ProcessFailure: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
