import Foundation

/// A counter on stderr for long work, shown only when stderr is a terminal and the work has
/// taken more than a second; scripts and pipes see nothing.
final class ProgressCounter {
  private let label: String
  private let unit: String
  private let started = Date()
  private var lastDrawn = Date.distantPast
  private var shown = false
  private let enabled = isatty(FileHandle.standardError.fileDescriptor) == 1

  init(label: String, unit: String) {
    self.label = label
    self.unit = unit
  }

  func update(_ count: Int) {
    guard enabled else { return }
    let now = Date()
    guard now.timeIntervalSince(started) > 1, now.timeIntervalSince(lastDrawn) > 0.1 else { return }
    lastDrawn = now
    shown = true
    // The unit is given plural ("rows"); one of them is singular.
    let counted = count == 1 && unit.hasSuffix("s") ? String(unit.dropLast()) : unit
    try? FileHandle.standardError.write(contentsOf: Data("\r\(label): \(count) \(counted)\u{1B}[K".utf8))
  }

  /// Erases the counter, before a line of output or at the end; the next update draws it again.
  func clear() {
    guard shown else { return }
    shown = false
    try? FileHandle.standardError.write(contentsOf: Data("\r\u{1B}[K".utf8))
  }

  /// Erases the counter for good.
  func finish() { clear() }
}
