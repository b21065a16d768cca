import NavCore
import NavPersistence

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
  /// otherwise rejected `wrong-device`. Sessions without a key are taken from any upload.
  package func ingest(_ lines: [ArraySlice<UInt8>], signedBy signer: DeviceKey? = nil) throws(StoreError)
    -> UploadOutcome
  {
    try withTransaction { transaction throws(StoreError) in
      var outcome = UploadOutcome()
      var refused: Set<SessionID> = []
      var named: [SessionID] = []
      var owners: [SessionID: DeviceKey?] = [:]
      for (index, bytes) in lines.enumerated() {
        let number = index + 1
        let event: AnyEvent
        do throws(WireFormatError) {
          guard let read = try ImportLine.event(from: bytes, isFirst: index == 0) else { continue }
          event = read
        } catch {
          let message = StoreError.invalidLine(line: number, error).description
          outcome.lines.append(
            .init(number: number, outcome: .rejected(LineRejection(reason: .invalid, message: message))))
          continue
        }
        if !named.contains(event.session) { named.append(event.session) }
        if refused.contains(event.session) {
          let rejection = LineRejection(
            reason: .gap, session: event.session, seq: event.seq,
            message: "an earlier line of session '\(event.session)' in this upload was rejected; resend from it")
          outcome.lines.append(.init(number: number, outcome: .rejected(rejection)))
          continue
        }
        // The device the session belongs to: its stored start's key, or this start's.
        let owner: DeviceKey?
        if let known = owners[event.session] {
          owner = known
        } else if try transaction.eventCount(of: event.session) > 0 {
          owner = try transaction.startContext(of: event.session)?.deviceKey
        } else {
          owner = event.operation.context?.deviceKey
        }
        owners[event.session] = owner
        if let owner, owner != signer {
          refused.insert(event.session)
          let rejection = LineRejection(
            reason: .wrongDevice, session: event.session, seq: event.seq,
            message: "session '\(event.session)' belongs to the device whose key its start names; "
              + (signer == nil ? "this upload is not signed" : "this upload is signed by another device"))
          outcome.lines.append(.init(number: number, outcome: .rejected(rejection)))
          continue
        }
        do throws(StoreError) {
          let appended = try transaction.append(event)
          outcome.lines.append(.init(number: number, outcome: appended.wasAlreadyStored ? .duplicate : .accepted))
        } catch {
          guard let rejection = Self.rejection(error, of: event, in: transaction) else { throw error }
          refused.insert(event.session)
          outcome.lines.append(.init(number: number, outcome: .rejected(rejection)))
        }
      }
      for session in named {
        let head = try transaction.head(of: session)
        outcome.heads[session] = SessionHead(seq: head.seq, hash: head.hash)
      }
      return outcome
    }
  }

  /// Stores an upload's lines (see the synchronous `ingest(_:)`), off the caller's thread.
  package func ingest(_ lines: [ArraySlice<UInt8>], signedBy signer: DeviceKey? = nil) async throws(StoreError)
    -> UploadOutcome
  {
    try await offloaded { () throws(StoreError) in try self.ingest(lines, signedBy: signer) }
  }

  /// What a refused append says about its line, in the contract's reasons; `nil` for a failure
  /// that is not the line's (storage), which fails the whole upload.
  private static func rejection(_ error: StoreError, of event: AnyEvent, in transaction: StoreTransaction)
    -> LineRejection?
  {
    let session = event.session
    let reason: LineRejection.Reason
    var seq = event.seq
    switch error {
    case .rejected(_, let next, let navigation):
      seq = next
      let stored = (try? transaction.eventCount(of: session)) ?? 0
      reason = navigation.reason == .notStarted && stored == 0 ? .unknownSession : .illegal
    case .conflict(_, let claimed, let next):
      reason = claimed > next ? .gap : .conflict
    case .hashMismatch(_, let at, _, _):
      seq = at
      reason = .hash
    case .forgottenSession:
      reason = .conflict
    case .unencodable:
      reason = .invalid
    default:
      return nil
    }
    return LineRejection(reason: reason, session: session, seq: seq, message: error.description)
  }
}
