import NavContract
import NavCore
import NavIngest
@_spi(Internals) import NavPersistence

/// The uploads of one SQLite store, written together: uploads that arrive while one transaction
/// is being written wait for the next, and go in it one after another (group commit).
///
/// A store has one writer, so uploads are written one at a time whatever happens; what costs is
/// each transaction's own work (beginning it, writing the same pages of its tables and indexes
/// to the write-ahead log again, committing). Written one transaction each, 64 devices' batches
/// of 20 lines made 64 transactions where one would do. Each upload's lines are read (parsed)
/// for its own caller before it waits, on the store's dispatch queue, so the reading of several
/// uploads goes on at once; the writer decides and appends them in the order they arrived,
/// exactly as one transaction each would, and each upload gets its own outcome once the transaction holding
/// it is committed: nothing is acknowledged before it is durable. A transaction takes waiting
/// uploads up to `linesPerTransaction` lines (always one at least). When a transaction of
/// several uploads fails, nothing of it is kept and each upload is written again in a
/// transaction of its own, so that one upload's failure (a session whose stored history cannot
/// be read) is its own alone; a full disk fails each of them.
package final class IngestQueue: Sendable {
  /// An upload read and waiting for the writer.
  private struct Upload: Sendable {
    let lines: [UploadDecision.Line]
    let signer: DeviceKey?
  }

  private let groups: GroupCommit<Upload, UploadOutcome, StoreError>

  /// The most lines an upload may have to be parsed on the caller's thread (tens of
  /// microseconds of work); a longer one is parsed on the store's queue.
  static let linesReadInPlace = 64

  /// The transactions written so far (each attempt, committed or not): how the tests see that
  /// uploads were grouped.
  package var transactionCount: Int { groups.attempts }

  /// The queue of `store`, whose transactions take up to `linesPerTransaction` lines.
  package init(store: SessionStore, linesPerTransaction: Int = 10_000) {
    groups = GroupCommit(unitsPerGroup: linesPerTransaction) { uploads throws(StoreError) in
      try await store.offloaded { () throws(StoreError) in
        try store.write { writer throws(StoreError) in
          var sessions = TransactionSessions(writer: writer)
          var outcomes: [UploadOutcome] = []
          for upload in uploads {
            outcomes.append(try UploadDecision.decide(upload.lines, signedBy: upload.signer, in: &sessions))
          }
          return outcomes
        }
      }
    }
  }

  /// Stores an upload's lines as `SessionStore.ingest(_:signedBy:datedUpTo:)` does, in a
  /// transaction it may share with the uploads that wait beside it.
  package func ingest(
    _ lines: [ArraySlice<UInt8>], signedBy signer: DeviceKey? = nil, datedUpTo latest: Timestamp? = nil
  ) async throws(StoreError) -> UploadOutcome {
    // A large upload is parsed on the store's dispatch queue, as the store's own work is: its
    // decoding must not hold one of the few threads that run the server's tasks. An uploader's
    // batch (20 lines) is parsed where it is, in less time than the hop to the queue and back.
    let read =
      lines.count <= Self.linesReadInPlace
      ? UploadDecision.read(lines, datedUpTo: latest)
      : await SessionStore.offloaded { () throws(Never) in UploadDecision.read(lines, datedUpTo: latest) }.get()
    return try await groups.submit(Upload(lines: read, signer: signer), units: lines.count).get()
  }
}
