import NavContract
import NavCore
import NavIngest
@_spi(Internals) import NavPersistence

extension SessionStore {
  /// Stores an upload's lines, each on its own: what the collector does with `POST /v1/events`.
  ///
  /// Each line is read as an import reads it (blank lines skipped) and appended by the same
  /// rules, all in one write transaction, so that every line reported `accepted` or `duplicate`
  /// is durable once this returns. A line that is not stored rejects only itself, and the later
  /// lines of its session in the upload (`gap`): lines of other sessions never affect one
  /// another. Throws only what is not a line's fault (a full disk, the store locked), and then
  /// nothing of the upload is stored.
  ///
  /// A session whose `start` names a device key belongs to that device: its lines are taken
  /// only when the upload was signed by that key (`signedBy`, checked by the caller), and are
  /// otherwise rejected `wrong-device`. Sessions without a key are taken from any upload. A line
  /// dated after `latest`, when given, is rejected `from-the-future`.
  package func ingest(
    _ lines: [ArraySlice<UInt8>], signedBy signer: DeviceKey? = nil, datedUpTo latest: Timestamp? = nil
  ) throws(StoreError) -> UploadOutcome {
    let read = UploadDecision.read(lines, datedUpTo: latest)
    return try write { writer throws(StoreError) in
      var sessions = TransactionSessions(writer: writer)
      return try UploadDecision.decide(read, signedBy: signer, in: &sessions)
    }
  }

  /// Stores an upload's lines (see the synchronous `ingest(_:)`), off the caller's thread.
  package func ingest(
    _ lines: [ArraySlice<UInt8>], signedBy signer: DeviceKey? = nil, datedUpTo latest: Timestamp? = nil
  ) async throws(StoreError) -> UploadOutcome {
    try await offloaded { () throws(StoreError) in try self.ingest(lines, signedBy: signer, datedUpTo: latest) }
  }
}

/// A SQLite store's write transaction, as an upload's lines are decided against it.
struct TransactionSessions: IngestSessions {
  let writer: StoreWriter

  func eventCount(of session: SessionID) throws(StoreError) -> Int { try writer.reader.eventCount(of: session) }

  func storedOwner(of session: SessionID) throws(StoreError) -> DeviceKey? {
    try writer.reader.startContext(of: session)?.deviceKey
  }

  func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome { try writer.appendOrRefuse(event) }

  func head(of session: SessionID) throws(StoreError) -> SessionHead { try writer.reader.head(of: session) }
}
