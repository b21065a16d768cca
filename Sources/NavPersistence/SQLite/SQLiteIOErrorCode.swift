/// The extended result codes of `SQLITE_IOERR` that say what the operating system failed at,
/// named after SQLite's `SQLITE_IOERR_*` macros (which do not reach Swift: they are
/// expressions, `SQLITE_IOERR | (n << 8)`). The raw value is `n`.
enum SQLiteIOErrorCode: Int32 {
  case read = 1
  case shortRead = 2
  case write = 3
  case fsync = 4
  case directoryFsync = 5
  case truncate = 6
  case fstat = 7
  case unlock = 8
  case readLock = 9
  case delete = 10
  case access = 13
  case checkReservedLock = 14
  case lock = 15
  case sharedMemorySize = 19
  case sharedMemoryLock = 20
  case sharedMemoryMap = 21
  case deleteMissing = 23
  case memoryMap = 24

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
