import Foundation
import NavTestSupport
import Testing

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
  static var binary: URL { BuiltExecutable.url(named: "navstore") }

  /// Runs the binary with `arguments`; `environment` adds to (or replaces in) the test's own.
  static func run(
    _ arguments: [String], stdin: String = "", in directory: URL? = nil, environment: [String: String] = [:]
  ) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
    }
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

extension NavStoreProcess {
  /// Runs `script` with bash, its output discarded; its exit status.
  static func shell(_ script: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// What a shell command prints on its standard output.
  static func shellOutput(_ script: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: printed, as: UTF8.self)
  }

  /// What a measured run reports: the exit status and the process's own peak resident memory,
  /// in KiB.
  struct Measured {
    var status: Int32
    var peakKiB: Int
  }

  /// Runs the binary under GNU `time`, which forks it from its own small process: the peak it
  /// reports is navstore's alone (a child spawned straight from the test runner would inherit
  /// the runner's peak at exec). Standard input is `/dev/null`; standard output goes to
  /// `stdoutPath` and standard error to `stderrPath`.
  static func measure(_ arguments: [String], stdoutPath: String = "/dev/null", stderrPath: String = "/dev/null") throws
    -> Measured
  {
    let peakFile = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: peakFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    process.arguments = ["-f", "%M", "-o", peakFile, binary.path] + arguments
    process.standardInput = FileHandle.nullDevice
    guard let output = emptied(stdoutPath), let errors = emptied(stderrPath) else {
      throw CocoaError(.fileWriteUnknown)
    }
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    try? output.close()
    try? errors.close()
    // GNU time writes "Command exited with non-zero status N" before the figure when it fails.
    let report = (try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? ""
    let peak = report.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
    return Measured(status: process.terminationStatus, peakKiB: peak)
  }

  /// A device as it is, or a file created empty.
  private static func emptied(_ path: String) -> FileHandle? {
    if !path.hasPrefix("/dev/"), !FileManager.default.createFile(atPath: path, contents: nil) { return nil }
    return FileHandle(forWritingAtPath: path)
  }
}

extension NavStoreProcess {
  /// Makes the signing key `key` named `name` in `folder` with `navstore keygen`, and writes the
  /// verifier key it prints into `file` there.
  static func makeKey(_ key: String, name: String, verifierInto file: String, in folder: URL) throws {
    let made = try run(["keygen", "--out", key, "--name", name], in: folder)
    #expect(made.status == 0)
    try made.stdout.write(to: folder.appendingPathComponent(file), atomically: true, encoding: .utf8)
  }
}
