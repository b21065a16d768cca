import Foundation

/// Which file a path names: its device and inode. A store file removed while the collector
/// has it open, or replaced by another file, keeps taking writes that reach no file at its
/// path; comparing identities before each acknowledgement is how the collector knows the file
/// it writes is the one it will find again.
struct FileIdentity: Hashable, Sendable {
  let device: UInt64
  let inode: UInt64

  /// The identity of the file at `path`, `nil` when there is none.
  static func of(_ path: String) -> FileIdentity? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// The size of the file at `path`, 0 when there is none.
  static func size(of path: String) -> Int {
    var status = stat()
    guard stat(path, &status) == 0 else { return 0 }
    return Int(status.st_size)
  }
}
