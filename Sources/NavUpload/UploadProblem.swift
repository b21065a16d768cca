import NavCore

/// Something an upload ran into, reported on `NavigationUploader.problems`. None of them drops
/// an event: what was not acknowledged stays in the store and is sent later.
public enum UploadProblem: Sendable, Hashable {
  /// The collector rejected a line (or one event is over its size limits: `too-large`): the
  /// session waits at `seq` (see `NavigationUploader.holds()`) while the other sessions go on.
  case rejected(session: SessionID, seq: Int, reason: String, message: String)
  /// The token was refused (401) or may not upload (403): uploading stops until `start()` is
  /// called again, with everything kept.
  case refused(status: Int, message: String)
  /// The collector could not be reached, or asked to wait: the uploader tries again later.
  case unreachable(message: String)
  /// The collector answered something the contract does not expect; tried again later.
  case unexpected(status: Int, message: String)
}

/// How one `flush()` ended.
public enum FlushOutcome: Sendable, Hashable {
  /// Nothing waits (but held sessions).
  case done
  /// The collector could not take it now; the background loop tries again after a backoff.
  case willRetry
  /// The token was refused: nothing more is sent until `start()`.
  case stopped
  /// The day's `UploadBudget` is spent, or too little of it is left for the next event: the
  /// rest waits for the next UTC day, or for a network that is not expensive.
  case overBudget
}
