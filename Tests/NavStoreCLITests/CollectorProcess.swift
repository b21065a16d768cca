import Foundation
import NavTestSupport

/// A running `navstore serve` on loopback (a port the system picks), and the address its ready
/// line names.
final class CollectorProcess {
  let process = Process()
  let url: String

  /// Starts `navstore serve --db DB` in `folder` on `host` and `port` (0: one the system picks), with
  /// `options` (`--idle-timeout 1`, ...); its log (standard error) goes to `log` when given. With
  /// `fileSizeLimitKiB`, no file it writes may grow past that size (`ulimit -f`, the signal that
  /// would kill it ignored): a write past it fails with `EFBIG`, as on a full disk.
  init(
    db: String, in folder: URL, host: String = "127.0.0.1", port: UInt16 = 0, options: [String] = [],
    log: String? = nil, fileSizeLimitKiB: Int? = nil
  ) throws {
    let arguments = ["serve", "--db", db, "--listen", "\(host):\(port)"] + options
    if let fileSizeLimitKiB {
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      process.arguments =
        ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimitKiB); exec \"$0\" \"$@\"", NavStoreProcess.binary.path]
        + arguments
    } else {
      process.executableURL = NavStoreProcess.binary
      process.arguments = arguments
    }
    process.currentDirectoryURL = folder
    let output = Pipe()
    process.standardOutput = output
    if let log, FileManager.default.createFile(atPath: log, contents: nil) {
      process.standardError = FileHandle(forWritingAtPath: log)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    try process.run()
    let text = output.fileHandleForReading.firstLine()
    url = text.hasPrefix("listening on ") ? String(text.dropFirst("listening on ".count)) : ""
  }

  /// The port in `url`.
  var port: UInt16 { UInt16(url.split(separator: ":").last ?? "") ?? 0 }

  /// The process's peak resident memory so far (`VmHWM`), in KiB; -1 if it cannot be read.
  var peakKiB: Int { PeakMemory.kibibytes(ofProcess: process.processIdentifier) }

  /// Sends `signal` and waits for the process to end; its exit status. A process still there a
  /// minute later (far past any drain time the tests give) is killed and reported as -1, so a
  /// collector that missed its signal fails the test that stopped it instead of hanging the run.
  func stop(_ signal: Int32) -> Int32 {
    kill(process.processIdentifier, signal)
    let deadline = ContinuousClock.now + .seconds(60)
    while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
    guard !process.isRunning else {
      FileHandle.standardError.write(
        Data("serve (pid \(process.processIdentifier)) outlived signal \(signal) by a minute\n".utf8))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }
}

extension FileHandle {
  /// The next line a child process writes here, without its newline (what came before the end
  /// of the output if it ends first). Read a byte at a time, so nothing after the line is taken
  /// from the pipe.
  func firstLine() -> String {
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
      let byte = readData(ofLength: 1)
      guard !byte.isEmpty else { break }
      line.append(byte)
    }
    return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
