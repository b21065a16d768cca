/// A failure the CLI reports as one line on stderr, with a non-zero exit status.
///
/// Commands translate every library error into one of these, worded for the person at the
/// terminal: what was wrong and, where it helps, what to do.
struct CLIError: Error, CustomStringConvertible {
  let description: String
  /// The exit status, when not 1: 128 plus the signal's number for a command a signal
  /// stopped (130 for Ctrl-C, 143 for SIGTERM), as shells report it.
  let exitStatus: Int32

  init(_ description: String, exitStatus: Int32 = 1) {
    self.description = description
    self.exitStatus = exitStatus
  }
}

extension CLIError {
  /// `--after` names a cursor ahead of the store's (`ExportFilter.answering`).
  static func cursorAhead(_ after: Int64?, of cursor: Int64) -> CLIError {
    CLIError(
      "--after \(after ?? 0) is ahead of this store's cursor (\(cursor)): the store was restored or replaced since; export everything again, without --after"
    )
  }
}
