import NavCore

extension SessionStore {
  /// Writes the whole store, as it stands at one moment, to a new file at `destination`: one
  /// self-contained SQLite file (nothing of it in a `-wal` beside it), to attach to a support
  /// ticket or copy off the device. SQLite's `VACUUM INTO`, run on a reader: appends go on
  /// meanwhile and are not in the copy. The copy opens as a store of its own, and verifies.
  ///
  /// Never overwrites: an existing `destination` is refused (`.destinationExists`), as is a
  /// folder that does not exist (`.folderMissing`). The copy is written under a temporary name
  /// beside `destination` and moved there only once it is complete, so a copy cut short (a full
  /// disk) leaves nothing at `destination`.
  public func backup(to destination: String) throws(StoreError) {
    try NewFile(at: destination).writeFile { partial throws(StoreError) in
      try withReaderOutsideTransactions { engine throws(StoreError) in
        let statement = try engine.prepare("VACUUM INTO ?")
        defer { statement.reset() }
        try engine.execute(statement, [.text(partial)])
      }
    }
  }

  /// Writes the whole store to a new file (see the synchronous `backup(to:)`).
  public func backup(to destination: String) async throws(StoreError) {
    try await offloaded { () throws(StoreError) in try self.backup(to: destination) }
  }
}
