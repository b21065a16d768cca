import Foundation

/// `python3` from the PATH, for the checks made with Python's tools (OpenAPI, OpenTelemetry).
public enum Python {
  /// What a run printed, and how it ended.
  public struct Result: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// The interpreter `python3` on the PATH runs (`sys.executable`), which a test can start and
  /// stop itself: a launcher (pyenv's) would outlive a `terminate()`.
  public static let executable: String? = {
    guard let result = try? run(["-c", "import sys; print(sys.executable)"]), result.status == 0 else { return nil }
    let path = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    return path.isEmpty ? nil : path
  }()

  /// Runs `python3` with `arguments`; standard error goes through a file, so that neither
  /// stream can fill up while the other is read.
  public static func run(_ arguments: [String]) throws -> Result {
    let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("python-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: errorsFile.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown)
    }
    defer { try? FileManager.default.removeItem(at: errorsFile) }
    let errors = try FileHandle(forWritingTo: errorsFile)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let output = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdoutData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try? errors.close()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? "")
  }
}

/// `Tests/Formats/check_event_formats.py`: the OpenTelemetry and Segment exports held to the
/// definitions their tools read (`opentelemetry-proto` from PyPI).
public enum EventFormatCheck {
  /// Set by CI: a missing `opentelemetry-proto` fails the checks instead of skipping them.
  public static let isRequired = ProcessInfo.processInfo.environment["NAVSTORE_REQUIRE_OTLP"] == "1"

  /// Whether python3 has OpenTelemetry's protobuf definitions.
  public static let installed: Bool =
    (try? Python.run(["-c", "import opentelemetry.proto.collector.logs.v1.logs_service_pb2"]).status) == 0

  /// The script's path in this checkout.
  public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Formats/check_event_formats.py").path

  /// Runs the script with `arguments`.
  public static func run(_ arguments: [String]) throws -> Python.Result { try Python.run([script] + arguments) }
}
