import NavCore

/// Why a history's rules refused an event or a history could not be read back, whichever engine
/// holds it.
///
/// The rules and procedures of this module throw only this; an engine adds its own failures
/// (a file, SQLite, a database server) in an error of its own that carries these unchanged:
/// `StoreError` on a device's store has a case of the same name and values for each one.
package enum HistoryError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No session has this id.
  case unknownSession(SessionID)
  /// A sequence number past the end of a session's history.
  case seqBeyondHistory(session: SessionID, seq: Int, last: Int)
  /// The operation is impossible in the session's current state.
  case rejected(session: SessionID, seq: Int, NavigationError)
  /// The event's seq is not the next one (a race lost, or a gap in an import).
  case conflict(session: SessionID, expected: Int, actual: Int)
  /// An event's claimed hash is not the one the rules compute for it.
  case hashMismatch(session: SessionID, seq: Int, claimed: String, computed: String)
  /// A typed state cannot be written in the wire format (a screen that does not encode).
  case unencodable(WireFormatError)
  /// Stored history cannot be read back (edited by hand, or damaged).
  case unreadableHistory(session: SessionID, seq: Int, HistoryDamage)
  /// A stored session id is not a valid one (the store was edited outside NavStore).
  case unreadableSessionID(stored: String)
  /// A checkpoint or proof could not be used (a bad signature, another store's, no record).
  case checkpoint(CheckpointError)
  /// An export was asked to omit payloads from the events' JSON Lines, which are whole
  /// wire-format events.
  case payloadsInWireFormat
  /// The session was forgotten: its id is not used again.
  case forgottenSession(SessionID, at: Timestamp)
  /// A closure the caller passed in threw; the error is the caller's own, unchanged.
  case caller(CallerError)

  package var description: String {
    switch self {
    case .unknownSession(let id):
      "no session '\(id)' in the store"
    case .seqBeyondHistory(let session, let seq, let last):
      "session '\(session)' has events up to seq \(last); there is no seq \(seq)"
    case .rejected(let session, let seq, let error):
      "session '\(session)', seq \(seq): \(error)"
    case .conflict(let session, let expected, let actual):
      Self.describeConflict(session: session, expected: expected, actual: actual)
    case .hashMismatch(let session, let seq, let claimed, let computed):
      "session '\(session)', seq \(seq): the event's hash \(claimed.prefix(12))… does not match the computed "
        + "\(computed.prefix(12))… (the history was altered, or comes from another chain)"
    case .unencodable(let error):
      "the state cannot be written in the wire format: \(error)"
    case .unreadableHistory(let session, let seq, let damage):
      "session '\(session)', seq \(seq): stored history cannot be read (\(damage))"
    case .unreadableSessionID(let stored):
      "the store holds the session id \(stored.debugDescription), which is not a valid one: the file was edited outside NavStore"
    case .checkpoint(let error):
      error.description
    case .payloadsInWireFormat:
      "the events' JSON Lines are whole wire-format events (they import back), so they cannot omit payloads"
    case .forgottenSession(let session, let time):
      "the session '\(session)' was forgotten at \(time); its id is not used again"
    case .caller(let error):
      "\(error)"
    }
  }

  /// A seq conflict in the words of what happened. Behind the session's next seq, another
  /// writer got there first (or the event is of another history); ahead of it, events are
  /// missing in between, which no retry mends.
  private static func describeConflict(session: SessionID, expected: Int, actual: Int) -> String {
    let was = "session '\(session)': the event was to be seq \(expected), but the next seq is \(actual)"
    if expected < actual {
      return was
        + " (seq \(expected) is already stored with other content: another writer appended first, or this is another history; re-read the session and retry)"
    }
    if actual == 1 {
      return was + " (the session has no events yet: its history must begin at seq 1)"
    }
    let missing = expected - 1 == actual ? "seq \(actual) is" : "seqs \(actual) to \(expected - 1) are"
    return was + " (\(missing) missing before it)"
  }

  /// A `start` refused because its session has already started.
  package var isAlreadyStartedRejection: Bool {
    if case .rejected(_, _, let rejection) = self { return rejection.reason == .alreadyStarted }
    return false
  }
}

/// An engine's own error, which carries the rules' failures unchanged: the procedures that call
/// back into an engine (to read a row it holds) throw the engine's error, the rules' failures
/// included.
package protocol HistoryFailure: Error {
  /// The rules' failure as this engine reports it.
  init(_ error: HistoryError)
  /// The rules' failure this is, when it is one (`nil` for the engine's own).
  var history: HistoryError? { get }
}

extension HistoryError: HistoryFailure {
  package init(_ error: HistoryError) { self = error }
  package var history: HistoryError? { self }
}

extension HistoryFailure {
  /// Runs a step of the rules, its failure reported as this engine's: `try StoreError.ruling(row.decoded())`.
  @discardableResult
  package static func ruling<T>(_ step: @autoclosure () throws(HistoryError) -> T) throws(Self) -> T {
    do { return try step() } catch { throw Self(error) }
  }
}
