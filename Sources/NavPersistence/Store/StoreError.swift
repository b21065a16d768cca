import NavCore

/// Why the store refused or failed, with the values a caller needs to act on it.
///
/// Every public method of `SessionStore` throws only this. A refused write wrote nothing: the
/// transaction it ran in was rolled back. Switch on the cases to decide what to do; the
/// `description` says what happened in the store's own terms, and each front end (an app's
/// own screens and logs, the `navstore` command line) words its advice for its own users.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A command that only reads was pointed at a store that does not exist.
  case storeMissing(path: String)
  /// The folder the store would be created in does not exist.
  case folderMissing(path: String)
  /// The file exists but is not a SQLite database.
  case notADatabase(path: String)
  /// The file is a damaged SQLite database (cut short, or corrupted); it is left untouched.
  case damaged(path: String)
  /// The file is a SQLite database, but not one NavStore created.
  case notAStore(path: String)
  /// The file, opened to read, is a store whose tables are all in its write-ahead log, the
  /// `-wal` file that belongs beside it, and that file is missing: the store was copied without
  /// it. It is left untouched (reading it as it is would show an empty store). A copy whose
  /// tables reached the file but whose latest events did not cannot be told from a whole store.
  case walMissing(path: String)
  /// The store was written by a newer NavStore; it is left untouched.
  case newerSchema(path: String, found: Int, supported: Int)
  /// The store needs migrating, which a read-only open cannot do.
  case olderSchema(path: String, found: Int, supported: Int)
  /// The store must be written, but the file or its folder is read-only.
  case readOnly(path: String)
  /// A new file was to be written at `path` (a backup, a bundle), and something is there already.
  case destinationExists(path: String)
  /// No session has this id.
  case unknownSession(SessionID)
  /// A sequence number past the end of a session's history.
  case seqBeyondHistory(session: SessionID, seq: Int, last: Int)
  /// The operation is impossible in the session's current state.
  case rejected(session: SessionID, seq: Int, NavigationError)
  /// The event's seq is not the next one (a race lost, or a gap in an import).
  case conflict(session: SessionID, expected: Int, actual: Int)
  /// `diff` cannot express the change between two states (the top coordinator changed kind).
  case cannotRecord(session: SessionID, DiffError)
  /// An event's claimed hash is not the one the store computes for it.
  case hashMismatch(session: SessionID, seq: Int, claimed: String, computed: String)
  /// The app's state before an action is not the session's current state.
  case stateMismatch(session: SessionID, seq: Int)
  /// A stored state cannot be decoded into the app's screen type (see `RestorePolicy`).
  case cannotRestore(session: SessionID, seq: Int, RestoreError)
  /// A line of an import is not a valid event.
  case invalidLine(line: Int, WireFormatError)
  /// A line of an import was refused; nothing of its transaction was kept.
  indirect case lineFailed(line: Int, StoreError)
  /// The input of an import could not be read.
  case unreadableInput(LineReaderError)
  /// A typed state cannot be written in the wire format (a screen that does not encode).
  case unencodable(WireFormatError)
  /// A screen (`screen`: its type and case) did not encode: the recorder kept the change with
  /// the screen marked as not storable, and a restore drops its route. Reported once per screen.
  case unstorableScreen(screen: String, WireFormatError)
  /// The app's action given as a change's cause does not encode: the change was recorded
  /// without a cause.
  case causeNotEncodable(WireFormatError)
  /// A screen (`screen`: its type and case) does not decode from its stored JSON as a value
  /// equal to itself (`field` is the first that differs): a restore would show it changed.
  /// Found by the recorder in debug builds, once per screen.
  case lossyScreen(screen: String, field: String?)
  /// Stored history cannot be read back (edited by hand, or damaged); `verify` says where.
  case unreadableHistory(session: SessionID, seq: Int, HistoryDamage)
  /// A session id stored in the file is not a valid one (the file was edited outside NavStore).
  case unreadableSessionID(stored: String)
  /// The disk, or the store's page limit, is full; the transaction was rolled back.
  case diskFull(SQLiteError)
  /// Another process held the store's lock for longer than the busy timeout.
  case busy(SQLiteError)
  /// The disk failed a read or write of the store (SQLite's `SQLITE_IOERR`); the transaction
  /// was rolled back.
  case diskFailed(path: String, SQLiteError)
  /// A closure the caller passed in (an export's sink, a progress or replay callback, the work
  /// of a `read` or `write`) threw; the error is the caller's own, unchanged, and the store's
  /// transaction was rolled back.
  case caller(CallerError)
  /// A checkpoint or proof could not be used (a bad signature, another store's, no record).
  case checkpoint(CheckpointError)
  /// An export was asked to omit payloads from the events' JSON Lines, which are whole
  /// wire-format events.
  case payloadsInWireFormat
  /// The session was forgotten (`forget`, `prune`): its id is not used again.
  case forgottenSession(SessionID, at: Timestamp)
  /// A write was started from inside a callback of a write on the same thread (an import's
  /// `progress` closure appending, say), which would wait for itself forever. Reads work there.
  case reentrantWrite
  /// Any other SQLite failure.
  case sqlite(SQLiteError)

  public var description: String {
    switch self {
    case .storeMissing(let path):
      "no store at '\(path)'"
    case .folderMissing(let path):
      "cannot create the store '\(path)': its folder does not exist"
    case .notADatabase(let path):
      "'\(path)' is not a SQLite database (it was left untouched)"
    case .damaged(let path):
      "'\(path)' is damaged (SQLite reports a malformed database) and was left untouched"
    case .notAStore(let path):
      "'\(path)' is a SQLite database but not a NavStore store"
    case .walMissing(let path):
      "'\(path)' keeps its data in its write-ahead log '\(path)-wal', which is not beside it (the file was copied without it); it was left untouched"
    case .newerSchema(let path, let found, let supported):
      "'\(path)' was written by a newer NavStore (schema \(found); this one knows up to \(supported)); it was left untouched"
    case .olderSchema(let path, let found, let supported):
      "'\(path)' has schema \(found) and needs migrating to \(supported), which a read-only open does not do"
    case .readOnly(let path):
      "'\(path)' is read-only, so nothing can be written to it"
    case .destinationExists(let path):
      "'\(path)' already exists; a backup or a bundle is written to a new file, never over one"
    case .cannotRecord(let session, let error):
      "session '\(session)': cannot record the change: \(error)"
    case .stateMismatch(let session, let seq):
      "session '\(session)': the state before the action is not the session's state at seq \(seq)"
    case .cannotRestore(let session, let seq, let error):
      "session '\(session)' at seq \(seq): \(error)"
    case .invalidLine(let line, let error):
      ImportLine.describe(line: line, error)
    case .lineFailed(let line, let failure) where failure.isAlreadyStartedRejection:
      // Only a line without a seq can start a session that has events (one with a seq is a
      // duplicate or a conflict): the file was most likely imported before.
      "line \(line): \(failure) (a line without a seq is appended after the session's events, so importing a file "
        + "again appends it again; lines with seqs, as the wire-format exports write them, are skipped when already "
        + "stored)"
    case .lineFailed(let line, let error):
      "line \(line): \(error)"
    case .unreadableInput(let error):
      "\(error)"
    case .causeNotEncodable(let error):
      "an action given as a cause could not be encoded (\(error.message)): the change is recorded without it"
    case .lossyScreen(let screen, let field):
      "a screen \(screen) does not come back from its stored JSON as itself"
        + (field.map { " (its field '\($0)' differs)" } ?? "")
        + ": a restore would show it changed; keep in a screen only what its encoding keeps (ids and values)"
    case .unstorableScreen(let screen, let error):
      "a screen \(screen) could not be encoded (\(error.message)): its changes are recorded with the screen marked as not storable, and a restore leaves its route out; keep ids and values in screens, never closures or view models"
    case .diskFull(let error):
      "the disk or the store is full; nothing was written (\(error.message))"
    case .busy(let error):
      "the store is locked by another process and stayed locked past the busy timeout (\(error.message))"
    case .diskFailed(let path, let error):
      "the disk failed while \(error.ioActivity) '\(path)' (SQLite error \(error.extendedCode)); nothing of the transaction was kept"
    case .reentrantWrite:
      "a store callback tried to write to the same store while its own write was under way (which would wait "
        + "forever); write after the call returns, or read instead"
    case .sqlite(let error):
      "\(error)"
    case .unknownSession, .seqBeyondHistory, .rejected, .conflict, .hashMismatch, .unencodable, .unreadableHistory,
      .unreadableSessionID, .checkpoint, .payloadsInWireFormat, .forgottenSession, .caller:
      // The rules' failures are worded where the rules are (`HistoryError`).
      history?.description ?? ""
    }
  }

  /// Whether the failure is the store's or its disk's rather than the data's: such a failure
  /// during an import or a batch is reported as it is, not as the fault of the line it
  /// happened on, and work over many sessions (`navstore report --all`) stops at it rather
  /// than going on to the next session.
  package var isStorageFailure: Bool {
    switch self {
    case .diskFull, .busy, .diskFailed, .sqlite, .readOnly, .reentrantWrite: true
    default: false
    }
  }

  /// Classifies a SQLite failure on the store at `path`.
  static func from(_ error: SQLiteError, path: String) -> StoreError {
    if error.isFull { return .diskFull(error) }
    if error.isBusy { return .busy(error) }
    if error.isIOError { return .diskFailed(path: path, error) }
    return .sqlite(error)
  }
}

extension StoreError {
  /// Runs a closure the caller passed to one of the store's doors: the store's own errors come
  /// out as they are, any other error as `.caller`.
  static func passingThrough<T>(_ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch let error as StoreError {
      throw error
    } catch {
      throw .caller(CallerError(error))
    }
  }

  /// A `start` refused because its session has already started.
  package var isAlreadyStartedRejection: Bool { history?.isAlreadyStartedRejection ?? false }
}

extension StoreError: HistoryFailure {
  /// The rules' failure as the device's store reports it: the case of the same name and values.
  package init(_ error: HistoryError) {
    self =
      switch error {
      case .unknownSession(let session): .unknownSession(session)
      case .seqBeyondHistory(let session, let seq, let last): .seqBeyondHistory(session: session, seq: seq, last: last)
      case .rejected(let session, let seq, let rejection): .rejected(session: session, seq: seq, rejection)
      case .conflict(let session, let expected, let actual):
        .conflict(session: session, expected: expected, actual: actual)
      case .hashMismatch(let session, let seq, let claimed, let computed):
        .hashMismatch(session: session, seq: seq, claimed: claimed, computed: computed)
      case .unencodable(let error): .unencodable(error)
      case .unreadableHistory(let session, let seq, let damage): .unreadableHistory(session: session, seq: seq, damage)
      case .unreadableSessionID(let stored): .unreadableSessionID(stored: stored)
      case .checkpoint(let error): .checkpoint(error)
      case .payloadsInWireFormat: .payloadsInWireFormat
      case .forgottenSession(let session, let time): .forgottenSession(session, at: time)
      case .caller(let error): .caller(error)
      }
  }

  /// The rules' failure this is, when it is one (`nil` for the store's own: its file, SQLite,
  /// an import's lines, the recorder's screens).
  package var history: HistoryError? {
    switch self {
    case .unknownSession(let session): .unknownSession(session)
    case .seqBeyondHistory(let session, let seq, let last): .seqBeyondHistory(session: session, seq: seq, last: last)
    case .rejected(let session, let seq, let rejection): .rejected(session: session, seq: seq, rejection)
    case .conflict(let session, let expected, let actual):
      .conflict(session: session, expected: expected, actual: actual)
    case .hashMismatch(let session, let seq, let claimed, let computed):
      .hashMismatch(session: session, seq: seq, claimed: claimed, computed: computed)
    case .unencodable(let error): .unencodable(error)
    case .unreadableHistory(let session, let seq, let damage): .unreadableHistory(session: session, seq: seq, damage)
    case .unreadableSessionID(let stored): .unreadableSessionID(stored: stored)
    case .checkpoint(let error): .checkpoint(error)
    case .payloadsInWireFormat: .payloadsInWireFormat
    case .forgottenSession(let session, let time): .forgottenSession(session, at: time)
    case .caller(let error): .caller(error)
    default: nil
    }
  }
}
