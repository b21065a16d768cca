import Foundation
import FuzzSupport
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// The input's bytes as a store file handed over by someone else, opened read-only (or migrated,
/// when its schema is older) and verified, listed, read and exported: every failure a clear
/// `StoreError`, never a crash; and a session that verifies rehydrates to the replay of its
/// history.
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
  let opened =
    (try? SessionStore(path: path, options: StoreOptions(access: .readOnly))) ?? (try? SessionStore(path: path))
  guard let store = opened else { return 0 }
  let intact = Set(((try? store.verify()) ?? []).filter(\.isIntact).map(\.session))
  _ = try? store.latestSession()
  if let sessions = try? store.sessions() {
    for session in sessions.prefix(8) {
      _ = try? store.summary(of: session.id)
      let history = try? store.history(of: session.id)
      let state = try? store.state(of: session.id)
      // A session that verifies rehydrates to the replay of its history, snapshots or not.
      guard intact.contains(session.id), let history, let state else { continue }
      var replayed: AnyCoordinator?
      for event in history { replayed = try? event.operation.apply(to: replayed) }
      guard replayed == state.state, state.seq == history.count else {
        violated(
          "\(session.id): verified, but its state at seq \(state.seq) is not the replay of its \(history.count) events")
      }
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
