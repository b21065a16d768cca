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

  /// The cursor, or `nil` before the first round (or when the file holds no number: then
  /// everything is sent again, at least once rather than never).
  func read() -> Int64? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    return Int64(text.trimmingCharacters(in: .whitespacesAndNewlines))
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
