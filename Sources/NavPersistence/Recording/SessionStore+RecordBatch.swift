import NavCore

extension SessionStore {
  /// Writes a recorder's batch in one transaction: each change becomes the operations `diff`
  /// derives from the state before it (or `start`, with `link`, for a new session), appended
  /// with their expected seqs. A change that cannot be recorded (the top coordinator changed
  /// kind; an operation the model refuses) is skipped and reported, and the next one is diffed
  /// against the last state written. `known` is the head the recorder believes in; `nil` reads
  /// it from the store (resynchronizing). A failure of the transaction itself (disk full,
  /// locked, read-only, another writer on the session) throws, and nothing of the batch stays.
  func recordBatch(
    session: SessionID, changes: [RecordedChange], known: RecordedHead?, link: SessionLink?
  ) throws(StoreError) -> RecordBatchOutcome {
    try run { engine in
      try engine.write {
        var head = try known ?? engine.head(of: session).map { RecordedHead(state: $0.state, seq: $0.seq) }
        var skipped: [(index: Int, error: StoreError)] = []
        var appended = 0
        for (index, change) in changes.enumerated() {
          let operations: [AnyOperation]
          do throws(StoreError) {
            operations = try Self.operations(recording: session, from: head?.state, to: change.state, link: link)
          } catch {
            skipped.append((index, error))
            continue
          }
          // Checked on a copy first, so a refused change writes none of its operations.
          var probe = head?.state
          var refusal: NavigationError?
          for operation in operations where refusal == nil {
            do throws(NavigationError) {
              try operation.apply(toSession: &probe)
            } catch {
              refusal = error
            }
          }
          if let refusal {
            skipped.append((index, .rejected(session: session, seq: (head?.seq ?? 0) + 1, refusal)))
            continue
          }
          var seq = head?.seq ?? 0
          for operation in operations {
            seq += 1
            _ = try engine.append(
              AnyEvent(session: session, seq: seq, at: change.at, origin: change.origin, operation: operation, cause: change.cause))
          }
          appended += operations.count
          head = RecordedHead(state: probe ?? change.state, seq: seq)
        }
        return RecordBatchOutcome(head: head, skipped: skipped, appended: appended)
      }
    }
  }
}
