import Foundation

/// A process's peak resident memory as Linux counts it (`VmHWM` in `/proc/PID/status`), for
/// the drills that bound memory.
public enum PeakMemory {
  /// The peak of the process `pid` (this process when `nil`) so far, in KiB; -1 where `/proc`
  /// cannot tell (another system, or a process that has ended).
  public static func kibibytes(ofProcess pid: Int32? = nil) -> Int {
    let path = "/proc/\(pid.map(String.init) ?? "self")/status"
    let status = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Int($0.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") } ?? -1
  }
}
