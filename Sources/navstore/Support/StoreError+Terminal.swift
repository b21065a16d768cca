import NavFleet
import NavPersistence

extension StoreError {
  /// The error as the command line says it: what happened, in the store's words, and what to
  /// do about it at a terminal (which command to run, which option to change). The one place
  /// the CLI words the library's errors.
  var terminalMessage: String {
    switch self {
    case .storeMissing:
      description + " (create one with 'navstore init', or point --db or NAVSTORE_DB at an existing one)"
    case .damaged:
      description + "; restore it from a backup, or rebuild it from an events export"
    case .notAStore:
      description + " (run 'navstore init' to make an empty file one)"
    case .walMissing:
      description + " — copy the store together with its -wal file, or make a one-file copy with 'navstore backup'"
    case .newerSchema:
      description + " — upgrade navstore"
    case .olderSchema(let path, let found, let supported):
      "'\(path)' has schema \(found) and needs migrating to \(supported); run 'navstore init' on it"
    case .unknownSession:
      description + " (list them with 'navstore sessions')"
    case .conflict(_, let expected, let actual) where expected > actual && actual > 1:
      String(description.dropLast()) + ": import the events in order, from seq \(actual))"
    case .lineFailed(let line, let failure) where failure.isAlreadyStartedRejection:
      "line \(line): \(failure.terminalMessage) (a line without a seq is appended after the session's events, so "
        + "importing a file again appends it again; lines with seqs, as `history --json` and `export --format jsonl` "
        + "write them, are skipped when already stored)"
    case .lineFailed(let line, let failure):
      "line \(line): \(failure.terminalMessage)"
    case .unreadableInput(.lineTooLong):
      String(description.dropLast()) + " raise the limit with 'navstore import --max-line-bytes')"
    case .unreadableHistory(_, _, .rowDisagreesWithEvents):
      description + "; run 'navstore verify' before checkpointing"
    case .unreadableHistory:
      description + "; run 'navstore verify'"
    case .payloadsInWireFormat:
      description + "; export the events as CSV instead"
    case .forgottenSession:
      description + " (choose another)"
    case .diskFailed:
      description + " — check the disk (free space, 'dmesg', a network mount that went away) and retry"
    default:
      description
    }
  }
}

extension FleetError {
  /// The error as the command line says it (see `StoreError.terminalMessage`).
  var terminalMessage: String {
    switch self {
    case .store(let error):
      error.terminalMessage
    case .history(let error):
      StoreError(error).terminalMessage
    case .unknownApp:
      description + " (a command that writes creates it: 'navstore import FILE --app NAME', 'navstore token create')"
    case .unknownToken:
      description + " (list them with 'navstore token list')"
    case .newerCollectorTables, .newerDatabaseSchema:
      description + " — upgrade navstore"
    case .database:
      description + " (is the server running, and does the address name its user and database?)"
    case .invalidTokenLabel, .invalidDatabaseAddress, .unusableStore, .rejectedLine:
      description
    }
  }
}
