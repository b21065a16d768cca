import NavCore

extension SessionStore {
  /// Writes a recorder's batch in one transaction: each change becomes the operations `diff`
  /// derives from the state before it (or `start`, with what `start` holds, for a new session),
  /// appended with their expected seqs. A `background` or `end` appended settles the launch
  /// `settling` (the user left on purpose: not a launch that crashed while restoring). A change `diff` cannot express (the top coordinator changed kind)
  /// is skipped and reported, and the next one is diffed against the last state written.
  /// `known` is the head the recorder believes in; `nil` reads it from the store
  /// (resynchronizing). Every operation is checked against the stored state as it is appended;
  /// a failure of the transaction (an operation the store refuses, disk full, locked, read-only,
  /// another writer on the session) throws, and nothing of the batch stays.
  func recordBatch(
    session: SessionID, changes: [RecordedChange], known: RecordedHead?, start: RecordedStart,
    settling launch: Int64? = nil
  ) throws(StoreError) -> RecordBatchOutcome {
    try withWriteTransaction { engine throws(StoreError) in
      var head: RecordedHead?
      if let known {
        head = known
      } else {
        head = try engine.head(of: session).map {
          RecordedHead(state: $0.state.tree, seq: $0.totals.count, phase: $0.totals.phase)
        }
      }
      var skipped: [StoreError] = []
      // A new session's start names the device's key (made now, on the first recording), so a
      // collector takes its lines from this device only.
      var start = start
      if head == nil, let key = try engine.deviceSigningKey(creating: true) {
        var named = start.context ?? SessionContext()
        named.deviceKey = key.publicKey.deviceKey
        start.context = named
      }
      for change in changes {
        let operations: [AnyOperation]
        do throws(StoreError) {
          operations = try Self.operations(recording: change.content, after: head, in: session, start: start)
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
          // Appended, so the phase rules held: `after` cannot throw here.
          let phase = (try? (head?.phase ?? .foreground).after(operation)) ?? .foreground
          head = RecordedHead(state: outcome.state, seq: seq, phase: phase)
          switch operation.kind {
          case .background, .end: if let launch { try engine.confirmLaunch(launch, at: change.at) }
          default: break
          }
        }
      }
      return RecordBatchOutcome(head: head, skipped: skipped)
    }
  }

  /// The operations that record `content` after `head` (`nil`: the session has no events): a
  /// state's diff (or `start`), a lifecycle event unless the session is already in its phase.
  /// Throws, as a rejection, what the session's phase forbids: anything after `end`, a lifecycle
  /// event before the first state.
  private static func operations(
    recording content: RecordedChange.Content, after head: RecordedHead?, in session: SessionID,
    start: RecordedStart
  ) throws(StoreError) -> [AnyOperation] {
    let seq = (head?.seq ?? 0) + 1
    switch content {
    case .state(let state):
      let operations = try operations(
        recording: session, from: head?.state, to: state, link: start.link, context: start.context,
        launch: start.launch)
      if head?.phase == .ended, let first = operations.first {
        throw StoreError.rejected(
          session: session, seq: seq, NavigationError(operation: first.name, path: first.path, reason: .sessionEnded))
      }
      return operations
    case .lifecycle(let event):
      let operation: AnyOperation = event.operation()
      guard let head else {
        let notStarted = NavigationError(operation: operation.name, path: .top, reason: .notStarted)
        throw StoreError.rejected(session: session, seq: seq, notStarted)
      }
      if head.phase == event.phase { return [] }
      do throws(NavigationError) {
        _ = try head.phase.after(operation)
      } catch {
        throw StoreError.rejected(session: session, seq: seq, error)
      }
      return [operation]
    }
  }
}
