import Foundation

/// A file written whole under a temporary name, then put in place only if nothing is at its
/// destination: what `backup` and `bundle` write, so that a copy cut short (a full disk) leaves
/// nothing at the destination and no existing file is ever replaced.
///
/// `writeFile` and `writeContents` run the steps in order; a caller that writes asynchronously
/// takes them one by one: `create`, its writes, `finish`, `place`, and `discard` whatever
/// happens.
package struct NewFile: Sendable {
  /// Where the file goes.
  let destination: String
  /// Where it is written first, beside the destination.
  let partial: String

  /// Checks that `destination` can take a new file: nothing is there (`.destinationExists`) and
  /// its folder exists (`.folderMissing`).
  package init(at destination: String) throws(StoreError) {
    let files = FileManager.default
    guard !files.fileExists(atPath: destination) else { throw .destinationExists(path: destination) }
    let folder = (destination as NSString).deletingLastPathComponent
    var isFolder: ObjCBool = false
    guard folder.isEmpty || (files.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue) else {
      throw .folderMissing(path: destination)
    }
    self.destination = destination
    partial = destination + ".partial-" + UUID().uuidString
  }

  /// Runs `write` on the partial file's path, then puts the file in place. The partial file is
  /// removed whatever happens.
  func writeFile(_ write: (String) throws(StoreError) -> Void) throws(StoreError) {
    defer { discard() }
    try write(partial)
    try place()
  }

  /// Runs `write` with the partial file open, then makes it durable and puts it in place. The
  /// partial file is removed whatever happens.
  package func writeContents(_ write: (FileHandle) throws(StoreError) -> Void) throws(StoreError) {
    defer { discard() }
    let output = try create()
    defer { try? output.close() }
    try write(output)
    try finish(output)
    try place()
  }

  /// Creates the partial file, empty, and opens it for writing.
  package func create() throws(StoreError) -> FileHandle {
    guard FileManager.default.createFile(atPath: partial, contents: nil),
      let output = FileHandle(forWritingAtPath: partial)
    else { throw .readOnly(path: destination) }
    return output
  }

  /// Makes what was written through `output` durable.
  package func finish(_ output: FileHandle) throws(StoreError) {
    try StoreEngine.callingBack { try output.synchronize() }
  }

  /// Puts the written partial file at the destination, never over a file there.
  package func place() throws(StoreError) {
    // A hard link appears atomically and never replaces a file (EEXIST); where the file system
    // has no hard links, a move, which also refuses an existing destination.
    if link(partial, destination) == 0 { return }
    if errno == EEXIST { throw .destinationExists(path: destination) }
    do {
      try FileManager.default.moveItem(atPath: partial, toPath: destination)
    } catch {
      throw FileManager.default.fileExists(atPath: destination)
        ? .destinationExists(path: destination) : .readOnly(path: destination)
    }
  }

  /// Removes the partial file: gone once placed, what is left of a failure otherwise.
  package func discard() {
    try? FileManager.default.removeItem(atPath: partial)
  }
}
