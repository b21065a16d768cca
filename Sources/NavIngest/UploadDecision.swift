import NavContract
import NavCore
@_spi(Internals) import NavHistory

/// The sessions an upload's lines are decided against, as an engine holds them for the length of
/// one upload's transaction.
package protocol IngestSessions {
  /// The engine's error: the rules' refusals, which are a line's fault, and its own failures,
  /// which fail the upload.
  associatedtype Failure: HistoryFailure
  /// How many events the session has now (stored, and decided earlier in this upload).
  mutating func eventCount(of session: SessionID) throws(Failure) -> Int
  /// The device key its stored `start` names (`nil`: none, or no event stored).
  mutating func storedOwner(of session: SessionID) throws(Failure) -> DeviceKey?
  /// Decides one event by the append rules (`AppendStep`).
  mutating func append(_ event: AnyEvent) throws(Failure) -> AppendOutcome
  /// The session's head now.
  mutating func head(of session: SessionID) throws(Failure) -> SessionHead
}

/// What becomes of each line of an upload, decided once for every engine: lines read as an
/// import reads them, a session's device checked against the upload's signer, each event
/// appended by the store's rules, and a session's later lines refused (`gap`) once one of its
/// lines was.
package enum UploadDecision {
  /// A non-blank line of an upload: its event, or why it is none.
  package enum Line: Sendable {
    case event(number: Int, AnyEvent)
    case invalid(number: Int, LineRejection)
    /// An event dated past what the collector takes: refused, and its session's later lines.
    case fromTheFuture(number: Int, AnyEvent, latest: Timestamp)
  }

  /// The upload's non-blank lines, read, numbered from `first` (an import's batch goes on from
  /// the lines before it); an event dated after `latest`, when given, is `fromTheFuture`.
  package static func read(
    _ lines: [ArraySlice<UInt8>], numberedFrom first: Int = 1, datedUpTo latest: Timestamp? = nil
  ) -> [Line] {
    var read: [Line] = []
    for (index, bytes) in lines.enumerated() {
      let number = index + first
      do throws(WireFormatError) {
        guard let event = try ImportLine.event(from: bytes, isFirst: number == 1) else { continue }
        if let latest, event.at > latest {
          read.append(.fromTheFuture(number: number, event, latest: latest))
          continue
        }
        read.append(.event(number: number, event))
      } catch {
        let message = ImportLine.describe(line: number, error)
        read.append(.invalid(number: number, LineRejection(reason: .invalid, message: message)))
      }
    }
    return read
  }

  /// The sessions `lines` name, in the order they first appear.
  package static func sessions(in lines: [Line]) -> [SessionID] {
    var seen: Set<SessionID> = []
    var named: [SessionID] = []
    for line in lines {
      switch line {
      case .event(_, let event), .fromTheFuture(_, let event, _):
        if seen.insert(event.session).inserted { named.append(event.session) }
      case .invalid:
        continue
      }
    }
    return named
  }

  /// Decides every line against `sessions`. Throws only what is not a line's fault (storage).
  package static func decide<Sessions: IngestSessions>(
    _ lines: [Line], signedBy signer: DeviceKey?, in sessions: inout Sessions
  ) throws(Sessions.Failure) -> UploadOutcome {
    var outcome = UploadOutcome()
    var refused: Set<SessionID> = []
    var owners: [SessionID: DeviceKey?] = [:]
    for line in lines {
      let (number, event): (Int, AnyEvent)
      switch line {
      case .invalid(let invalid, let rejection):
        outcome.lines.append(.init(number: invalid, outcome: .rejected(rejection)))
        continue
      case .event(let at, let read):
        (number, event) = (at, read)
      case .fromTheFuture(let at, let read, let latest):
        if !refused.contains(read.session) {
          refused.insert(read.session)
          if owners[read.session] == nil { owners[read.session] = try sessions.storedOwner(of: read.session) }
          let rejection = LineRejection(
            reason: .fromTheFuture, session: read.session, seq: read.seq,
            message: "its time, \(read.at), is past \(latest), as far ahead of the collector's clock as it "
              + "takes; the device's clock is wrong")
          outcome.lines.append(.init(number: at, outcome: .rejected(rejection)))
          continue
        }
        (number, event) = (at, read)
      }
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
      } else {
        if try sessions.eventCount(of: event.session) > 0 {
          owner = try sessions.storedOwner(of: event.session)
        } else {
          owner = event.operation.context?.deviceKey
        }
        owners[event.session] = owner
      }
      if let owner, owner != signer {
        refused.insert(event.session)
        let rejection = LineRejection(
          reason: .wrongDevice, session: event.session, seq: event.seq,
          message: "session '\(event.session)' belongs to the device whose key its start names; "
            + (signer == nil ? "this upload is not signed" : "this upload is signed by another device"))
        outcome.lines.append(.init(number: number, outcome: .rejected(rejection)))
        continue
      }
      do throws(Sessions.Failure) {
        let appended = try sessions.append(event)
        outcome.lines.append(.init(number: number, outcome: appended.wasAlreadyStored ? .duplicate : .accepted))
      } catch {
        guard let refusal = error.history,
          let rejection = rejection(refusal, of: event, stored: try sessions.eventCount(of: event.session))
        else { throw error }
        refused.insert(event.session)
        outcome.lines.append(.init(number: number, outcome: .rejected(rejection)))
      }
    }
    // Every session an event line names has its owner noted.
    for (session, owner) in owners {
      outcome.heads[session] = try sessions.head(of: session)
      if let signer, owner == signer { outcome.signersSessions.insert(session) }
    }
    return outcome
  }

  /// What a refused append says about its line, in the contract's reasons (`stored`: the
  /// session's events now); `nil` for a failure that is not the line's (storage), which fails
  /// the whole upload.
  private static func rejection(_ error: HistoryError, of event: AnyEvent, stored: Int) -> LineRejection? {
    let reason: RejectionReason
    var seq = event.seq
    switch error {
    case .rejected(_, let next, let navigation):
      seq = next
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
    return LineRejection(reason: reason, session: event.session, seq: seq, message: error.description)
  }
}
