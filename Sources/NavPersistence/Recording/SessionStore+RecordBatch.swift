import NavCore

extension SessionStore {
  /// Writes a recorder's batch in one transaction: each change becomes the operations `diff`
  /// derives from the state before it (or `start`, with `link` and `context`, for a new session), appended
  /// with their expected seqs. A change `diff` cannot express (the top coordinator changed kind)
  /// is skipped and reported, and the next one is diffed against the last state written.
  /// `known` is the head the recorder believes in; `nil` reads it from the store
  /// (resynchronizing). Every operation is checked against the stored state as it is appended;
  /// a failure of the transaction (an operation the store refuses, disk full, locked, read-only,
  /// another writer on the session) throws, and nothing of the batch stays.
  func recordBatch(
    session: SessionID, changes: [RecordedChange], known: RecordedHead?, link: SessionLink?,
    context: SessionContext? = nil
  ) throws(StoreError) -> RecordBatchOutcome {
    try write { engine throws(StoreError) in
      var head: RecordedHead?
      if let known {
        head = known
      } else {
        head = try engine.head(of: session).map { RecordedHead(state: $0.state, seq: $0.seq) }
      }
      var skipped: [StoreError] = []
      for change in changes {
        let operations: [AnyOperation]
        do throws(StoreError) {
          operations = try Self.operations(
            recording: session, from: head?.state, to: change.state, link: link, context: context)
        } catch {
          skipped.append(error)
          continue
        }
        for operation in operations {
          let seq = (head?.seq ?? 0) + 1
          let outcome = try engine.append(
            AnyEvent(
              session: session, seq: seq, at: change.at, origin: change.origin, operation: operation,
              cause: change.cause))
          head = RecordedHead(state: outcome.state, seq: seq)
        }
      }
      return RecordBatchOutcome(head: head, skipped: skipped)
    }
  }
}
