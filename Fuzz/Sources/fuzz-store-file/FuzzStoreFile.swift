import Foundation
import FuzzSupport
import NavCore
import NavPersistence

/// The input's bytes as a store file handed over by someone else, opened read-only (or migrated,
/// when its schema is older) and verified, listed, read and exported: every failure a clear
/// `StoreError`, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let path = scratchFolder + "navstore-fuzz-\(getpid()).sqlite"
  for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
  guard FileManager.default.createFile(atPath: path, contents: Data(input(data, size))) else {
    violated("cannot write the input to \(path)")
  }
  defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) } }
  // A store of an older schema is not opened read-only; it is migrated, as `navstore init`
  // would, so the migrations meet the input too.
  let opened = (try? SessionStore(path: path, options: StoreOptions(access: .readOnly))) ?? (try? SessionStore(path: path))
  guard let store = opened else { return 0 }
  _ = try? store.verify()
  if let sessions = try? store.sessions() {
    for session in sessions.prefix(8) {
      _ = try? store.history(of: session.id)
      _ = try? store.state(of: session.id)
    }
  }
  for table in ExportTable.allCases {
    for format in ExportFormat.allCases {
      _ = try? store.exportEncoded(table, format: format) { _ in }
    }
  }
  return 0
}

/// Where the input is written for SQLite to open: memory-backed `/dev/shm` where there is one,
/// since a disk's file system makes every execution several times slower.
private let scratchFolder: String = {
  var isFolder: ObjCBool = false
  if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue,
    FileManager.default.isWritableFile(atPath: "/dev/shm")
  {
    return "/dev/shm/"
  }
  return NSTemporaryDirectory()
}()
