import NavContract
import NavCore
@_spi(Internals) import NavHistory

/// What the store did with each line of an upload, and where each session named stands after
/// it: the collector's answer to `POST /v1/events`.
package struct UploadOutcome: Hashable, Sendable {
  /// One line's outcome.
  package struct Line: Hashable, Sendable {
    /// The line's number in the upload, from 1.
    package var number: Int
    /// What became of it.
    package var outcome: LineOutcome
  }

  /// Each non-blank line's outcome, in order.
  package var lines: [Line] = []
  /// The head of every session the upload named, after it (seq 0 and no hash for a session
  /// that has no event).
  package var heads: [SessionID: SessionHead] = [:]
  /// The sessions of `heads` that belong to the device that signed the upload (their starts
  /// name its key): the only ones whose chain value an answer to an ingest token may show.
  package var signersSessions: Set<SessionID> = []

  /// `heads` as an answer to the holder of an ingest token shows them: the chain value only of
  /// the signer's own sessions. A chain value and the one after it let anyone guess, offline,
  /// the event between them (a screen, a product id), and the token is in every copy of the app.
  package var headsForIngest: [SessionID: SessionHead] {
    Dictionary(
      uniqueKeysWithValues: heads.map { session, head in
        (session, signersSessions.contains(session) ? head : SessionHead(seq: head.seq, hash: nil))
      })
  }

  /// How many lines were stored now.
  package var accepted: Int { lines.count { $0.outcome == .accepted } }
  /// How many lines were stored already.
  package var duplicates: Int { lines.count { $0.outcome == .duplicate } }
  /// The rejected lines, with why.
  package var rejected: [(line: Int, rejection: LineRejection)] {
    lines.compactMap { line in
      if case .rejected(let rejection) = line.outcome { (line.number, rejection) } else { nil }
    }
  }
}

/// What became of one line of an upload.
package enum LineOutcome: Hashable, Sendable {
  /// Stored now.
  case accepted
  /// The same event (session, seq and content) was stored already: a resend.
  case duplicate
  /// Not stored, and why.
  case rejected(LineRejection)
}
