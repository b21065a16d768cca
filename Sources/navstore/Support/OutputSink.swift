import Foundation
import NavPersistence

/// Buffered output to stdout or a file: exports write through this in 64 KiB pieces, so memory
/// stays flat whatever the row count.
final class OutputSink {
  private let handle: FileHandle
  private let closesHandle: Bool
  private var buffer: [UInt8] = []
  private let description: String

  /// Standard output.
  init() {
    handle = FileHandle.standardOutput
    closesHandle = false
    description = "standard output"
  }

  /// A file, created or truncated.
  init(path: String) throws(CLIError) {
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
      throw CLIError("--out: cannot write '\(path)' (does its folder exist and is it writable?)")
    }
    self.handle = handle
    closesHandle = true
    description = "'\(path)'"
  }

  func write(_ text: String) throws(CLIError) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { try flush() }
  }

  func flush() throws(CLIError) {
    guard !buffer.isEmpty else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      throw CLIError("cannot write to \(description): \(LineReaderError(error).message)")
    }
    buffer.removeAll(keepingCapacity: true)
  }

  func close() throws(CLIError) {
    try flush()
    if closesHandle { try? handle.close() }
  }
}
