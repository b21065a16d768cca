import Foundation

/// An app's forwarding cursor on disk: the export cursor up to which the endpoint has taken every
/// record. Written whole under another name, made durable, then renamed over the last, so a
/// crash leaves the old cursor or the new one, never part of one.
struct ForwardCursor: Sendable {
  /// The file.
  let path: String

  /// The cursor of `app` in `folder`.
  init(folder: String, app: String) {
    path = (folder as NSString).appendingPathComponent("\(app).cursor")
  }

  /// The cursor, or `nil` before the first round (no file). A file that cannot be read, or
  /// holds no number, throws: the round waits, rather than send the app's whole history again.
  func read() throws -> Int64? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    guard let cursor = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)), cursor >= 0 else {
      throw ForwardCursorError(path: path)
    }
    return cursor
  }

  /// Writes `cursor`, durably.
  func write(_ cursor: Int64) throws {
    let partial = path + ".partial"
    guard FileManager.default.createFile(atPath: partial, contents: Data("\(cursor)\n".utf8)) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial])
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: partial))
    try handle.synchronize()
    try handle.close()
    guard rename(partial, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
  }
}

/// A cursor file that holds no cursor (edited by hand, or damaged).
struct ForwardCursorError: Error, CustomStringConvertible {
  let path: String

  var description: String {
    "'\(path)' holds no cursor; put the last one back, or remove the file to send the app's whole history again"
  }
}
