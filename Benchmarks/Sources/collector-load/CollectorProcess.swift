import Foundation

/// A `navstore serve` in a process of its own, on a port of loopback the system picks, with its
/// resident memory sampled every 100 ms while it runs (the peak of those samples and the
/// kernel's own `VmHWM`).
final class CollectorProcess: @unchecked Sendable {
  let process = Process()
  /// The address it listens on (`http://127.0.0.1:PORT`).
  let base: String
  private let sampler: MemorySampler

  /// Starts `navstore serve` on the store `database` names (`--db PATH` or `--db postgres://...`),
  /// with `options` after it; returns once it has said where it listens.
  init(navstore: URL, database: [String], options: [String] = []) throws {
    process.executableURL = navstore
    process.arguments = ["serve", "--listen", "127.0.0.1:0"] + database + options
    let ready = Pipe()
    process.standardOutput = ready
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    guard let base = Self.readyLine(ready.fileHandleForReading) else {
      process.terminate()
      throw LoadError("navstore serve did not say where it listens (\(database.joined(separator: " ")))")
    }
    self.base = base
    sampler = MemorySampler(pid: process.processIdentifier)
  }

  /// The highest resident memory seen, in MiB: the sampler's and the kernel's peak, whichever
  /// is higher.
  var peakMiB: Double { max(sampler.peakMiB, Self.statusMiB(pid: process.processIdentifier, field: "VmHWM:")) }
  /// The resident memory now, in MiB.
  var residentMiB: Double { Self.statusMiB(pid: process.processIdentifier, field: "VmRSS:") }

  /// The processor time the collector has used (user and system), in seconds.
  var cpuSeconds: Double {
    let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
    // The fields after the command's name, which is in parentheses: utime and stime are the
    // 12th and 13th of them, in clock ticks (100 a second on Linux).
    guard let end = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / 100
  }

  /// SIGTERM, and the wait for the process to end.
  func stop() {
    sampler.stop()
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  deinit { stop() }

  /// A field of `/proc/PID/status` given in kB, in MiB (0 once the process is gone).
  static func statusMiB(pid: Int32, field: String) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field) } ?? ""
    return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
  }

  /// The address in `listening on URL`, the collector's first line.
  private static func readyLine(_ handle: FileHandle) -> String? {
    var text = ""
    while !text.contains("\n") {
      let chunk = handle.availableData
      if chunk.isEmpty { return nil }
      text += String(decoding: chunk, as: UTF8.self)
    }
    let line = text.split(separator: "\n").first.map(String.init) ?? ""
    return line.hasPrefix("listening on ") ? String(line.dropFirst("listening on ".count)) : nil
  }
}

/// Reads a process's `VmRSS` every 100 ms on a thread of its own and keeps the highest.
final class MemorySampler: @unchecked Sendable {
  private let lock = NSLock()
  private var peak = 0.0
  private var running = true

  init(pid: Int32) {
    Thread.detachNewThread { [self] in
      while lock.withLock({ running }) {
        let now = CollectorProcess.statusMiB(pid: pid, field: "VmRSS:")
        lock.withLock { peak = max(peak, now) }
        Thread.sleep(forTimeInterval: 0.1)
      }
    }
  }

  var peakMiB: Double { lock.withLock { peak } }
  func stop() { lock.withLock { running = false } }
}

/// The `navstore` commands the run needs besides `serve`.
struct NavstoreCommands {
  let navstore: URL

  /// The `navstore` beside this executable (`swift build -c release --product navstore`).
  static func beside() throws -> NavstoreCommands {
    let url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("navstore")
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw LoadError("collector-load needs navstore beside it: swift build -c release --product navstore")
    }
    return NavstoreCommands(navstore: url)
  }

  /// A new token of `role` for `app` in the store `database` names.
  func token(app: String, role: String, database: [String]) throws -> String {
    try run(["token", "create", "--app", app, "--role", role] + database, output: true)
  }

  /// Runs `navstore ARGUMENTS` to its end; its standard output when asked for.
  @discardableResult
  func run(_ arguments: [String], output: Bool = false) throws -> String {
    try Shell.run(navstore, arguments, output: output)
  }
}

/// Child processes run to their end.
enum Shell {
  /// Runs `executable` with `arguments`; throws with its standard error when it fails.
  @discardableResult
  static func run(_ executable: URL, _ arguments: [String], output: Bool = false) throws -> String {
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
      throw LoadError(
        "\(executable.lastPathComponent) \(arguments.first ?? "") failed: \(String(decoding: problem, as: UTF8.self))")
    }
    return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A command found on the PATH, through `env`.
  static func tool(_ name: String, _ arguments: [String], output: Bool = false) throws -> String {
    try run(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments, output: output)
  }
}
