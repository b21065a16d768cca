import Foundation

/// A file written whole under a temporary name, then put in place only if nothing is at its
/// destination: what `backup` and `bundle` write, so that a copy cut short (a full disk) leaves
/// nothing at the destination and no existing file is ever replaced.
struct NewFile {
  /// Where the file goes.
  let destination: String
  /// Where it is written first, beside the destination.
  let partial: String

  /// Checks that `destination` can take a new file: nothing is there (`.destinationExists`) and
  /// its folder exists (`.folderMissing`).
  init(at destination: String) throws(StoreError) {
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
  func write(_ write: (String) throws(StoreError) -> Void) throws(StoreError) {
    let files = FileManager.default
    defer { try? files.removeItem(atPath: partial) }  // gone once linked; what is left of a failure
    try write(partial)
    // A hard link appears atomically and never replaces a file (EEXIST); where the file system
    // has no hard links, a move, which also refuses an existing destination.
    if link(partial, destination) == 0 { return }
    if errno == EEXIST { throw .destinationExists(path: destination) }
    do {
      try files.moveItem(atPath: partial, toPath: destination)
    } catch {
      throw files.fileExists(atPath: destination) ? .destinationExists(path: destination) : .readOnly(path: destination)
    }
  }
}
