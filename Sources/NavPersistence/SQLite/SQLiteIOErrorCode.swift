/// The extended result codes of `SQLITE_IOERR` that say what the operating system failed at,
/// named after SQLite's `SQLITE_IOERR_*` macros (which do not reach Swift: they are
/// expressions, `SQLITE_IOERR | (n << 8)`). The raw value is `n`.
enum SQLiteIOErrorCode: Int32 {
  case read = 1, shortRead = 2, write = 3, fsync = 4, directoryFsync = 5, truncate = 6, fstat = 7
  case unlock = 8, readLock = 9, delete = 10, access = 13, checkReservedLock = 14, lock = 15
  case sharedMemorySize = 19, sharedMemoryLock = 20, sharedMemoryMap = 21, deleteMissing = 23, memoryMap = 24

  /// The code an extended result code carries, when it is an I/O error's and one of these.
  init?(extendedCode: Int32) {
    self.init(rawValue: extendedCode >> 8)
  }

  /// What SQLite was doing, in words that complete "the disk failed while ... the file".
  var activity: String {
    switch self {
    case .read, .shortRead, .sharedMemoryMap, .memoryMap: "reading"
    case .write, .truncate, .sharedMemorySize: "writing"
    case .fsync, .directoryFsync: "syncing to disk"
    case .fstat, .access: "inspecting"
    case .delete, .deleteMissing: "deleting a journal of"
    case .unlock, .readLock, .checkReservedLock, .lock, .sharedMemoryLock: "locking"
    }
  }
}
