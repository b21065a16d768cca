import Foundation
import NavPersistence

/// Buffered output to stdout or a file: exports write through this in 64 KiB pieces, so memory
/// stays flat whatever the row count.
final class OutputSink {
  private let handle: FileHandle
  private let closesHandle: Bool
  /// For a file: the partial file written, and the path it becomes when the export completes.
  private var pending: (partial: String, final: String)?
  private var buffer: [UInt8] = []
  private let description: String

  /// Standard output.
  init() {
    handle = FileHandle.standardOutput
    closesHandle = false
    description = "standard output"
  }

  /// A file. Rows go to `PATH.partial` first, renamed to `PATH` by `close()`, so a failed
  /// export never leaves a truncated file, nor empties an existing one. `option` names the
  /// flag that gave the path, in the error.
  init(path: String, option: String = "--out") throws(CLIError) {
    let partial = path + ".partial"
    guard FileManager.default.createFile(atPath: partial, contents: nil),
      let handle = FileHandle(forWritingAtPath: partial)
    else {
      throw CLIError("\(option): cannot write '\(path)' (does its folder exist and is it writable?)")
    }
    self.handle = handle
    closesHandle = true
    description = "'\(path)'"
    pending = (partial, path)
  }

  deinit {
    if let pending { try? FileManager.default.removeItem(atPath: pending.partial) }
  }

  /// Lets `body` append bytes straight into the buffer (an export row, without a `String`).
  func write(with body: (inout [UInt8]) -> Void) throws(CLIError) {
    body(&buffer)
    if buffer.count >= 1 << 16 { try flush() }
  }

  func flush() throws(CLIError) {
    guard !buffer.isEmpty else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      throw CLIError("cannot write to \(description): \(LineReaderError.systemReason(for: error))")
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is left and, for a file, moves it into place.
  func close() throws(CLIError) {
    try flush()
    if closesHandle { try? handle.close() }
    guard let pending else { return }
    do {
      if FileManager.default.fileExists(atPath: pending.final) {
        try FileManager.default.removeItem(atPath: pending.final)
      }
      try FileManager.default.moveItem(atPath: pending.partial, toPath: pending.final)
      self.pending = nil
    } catch {
      throw CLIError("--out: cannot move the export into '\(pending.final)': \(error.localizedDescription)")
    }
  }
}
