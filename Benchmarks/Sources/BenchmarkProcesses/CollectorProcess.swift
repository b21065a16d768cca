import Foundation

/// A `navstore serve` in a process of its own, on a port of loopback the system picks, with its
/// resident memory sampled every 100 ms while it runs (the peak of those samples and the
/// kernel's own `VmHWM`).
public final class CollectorProcess: @unchecked Sendable {
  public let process = Process()
  /// The address it listens on (`http://127.0.0.1:PORT`).
  public let base: String
  private let sampler: MemorySampler

  /// Starts `navstore serve` on the store `database` names (`--db PATH` or `--db postgres://...`),
  /// with `options` after it; returns once it has said where it listens. A `launcher` runs it
  /// (`env VAR=VALUE valgrind ...`: its words before the executable's path, run through `env`).
  public init(navstore: URL, database: [String], options: [String] = [], launcher: [String] = []) throws {
    let serve = ["serve", "--listen", "127.0.0.1:0"] + database + options
    if launcher.isEmpty {
      process.executableURL = navstore
      process.arguments = serve
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = launcher + [navstore.path] + serve
    }
    let ready = Pipe()
    process.standardOutput = ready
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    guard let base = Self.readyLine(ready.fileHandleForReading) else {
      process.terminate()
      throw ProcessFailure("navstore serve did not say where it listens (\(database.joined(separator: " ")))")
    }
    self.base = base
    sampler = MemorySampler(pid: process.processIdentifier)
  }

  /// The highest resident memory seen, in MiB: the sampler's and the kernel's peak, whichever
  /// is higher.
  public var peakMiB: Double { max(sampler.peakMiB, Self.statusMiB(pid: process.processIdentifier, field: "VmHWM:")) }
  /// The resident memory now, in MiB.
  public var residentMiB: Double { Self.statusMiB(pid: process.processIdentifier, field: "VmRSS:") }

  /// The processor time the collector has used (user and system), in seconds.
  public var cpuSeconds: Double {
    let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
    // The fields after the command's name, which is in parentheses: utime and stime are the
    // 12th and 13th of them, in clock ticks (100 a second on Linux).
    guard let end = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / 100
  }

  /// SIGTERM, and the wait for the process to end.
  public func stop() {
    sampler.stop()
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  deinit { stop() }

  /// A field of `/proc/PID/status` given in kB, in MiB (0 once the process is gone).
  public static func statusMiB(pid: Int32, field: String) -> Double {
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
public final class MemorySampler: @unchecked Sendable {
  private let lock = NSLock()
  private var peak = 0.0
  private var running = true

  public init(pid: Int32) {
    Thread.detachNewThread { [self] in
      while lock.withLock({ running }) {
        let now = CollectorProcess.statusMiB(pid: pid, field: "VmRSS:")
        lock.withLock { peak = max(peak, now) }
        Thread.sleep(forTimeInterval: 0.1)
      }
    }
  }

  public var peakMiB: Double { lock.withLock { peak } }
  public func stop() { lock.withLock { running = false } }
}
