import NavCore
import NavFleet
import NavPersistence
import NavTestSupport
import Testing

@testable import navstore

/// The command line words the library's errors for a person at a terminal: the store's own
/// description, and the command or option that helps. Each case below is one such line.
@Suite(.waitsOnProcesses) struct TerminalWordingTests {
  static let session = sessionID("s")
  static let disk = SQLiteError(extendedCode: 1034, message: "disk I/O error", sql: "COMMIT")

  @Test(arguments: [
    (
      StoreError.storeMissing(path: "/a/nav.sqlite"),
      "no store at '/a/nav.sqlite' (create one with 'navstore init', or point --db or NAVSTORE_DB at an existing one)"
    ),
    (
      .damaged(path: "/a/x"),
      "'/a/x' is damaged (SQLite reports a malformed database) and was left untouched; restore it from a backup, or rebuild it from an events export"
    ),
    (
      .walMissing(path: "/a/x"),
      "'/a/x' keeps its data in its write-ahead log '/a/x-wal', which is not beside it (the file was copied without it); it was left untouched — copy the store together with its -wal file, or make a one-file copy with 'navstore backup'"
    ),
    (
      .notAStore(path: "/a/x"),
      "'/a/x' is a SQLite database but not a NavStore store (run 'navstore init' to make an empty file one)"
    ),
    (
      .newerSchema(path: "/a/x", found: 9, supported: 5),
      "'/a/x' was written by a newer NavStore (schema 9; this one knows up to 5); it was left untouched — upgrade navstore"
    ),
    (
      .olderSchema(path: "/a/x", found: 1, supported: 5),
      "'/a/x' has schema 1 and needs migrating to 5; run 'navstore init' on it"
    ),
    (.unknownSession(session), "no session 's' in the store (list them with 'navstore sessions')"),
    (
      .conflict(session: session, expected: 9, actual: 3),
      "session 's': the event was to be seq 9, but the next seq is 3 (seqs 3 to 8 are missing before it: import the events in order, from seq 3)"
    ),
    (
      .conflict(session: session, expected: 9, actual: 1),
      "session 's': the event was to be seq 9, but the next seq is 1 (the session has no events yet: its history must begin at seq 1)"
    ),
    (
      .unreadableInput(.lineTooLong(line: 2, limit: 10)),
      "line 2 is longer than 10 bytes, the longest line allowed (an event is far shorter: is the input cut, or not JSON Lines? raise the limit with 'navstore import --max-line-bytes')"
    ),
    (
      .unreadableHistory(session: session, seq: 2, .noStartEvent),
      "session 's', seq 2: stored history cannot be read (the session has no start event); run 'navstore verify'"
    ),
    (
      .unreadableHistory(session: session, seq: 4, .rowDisagreesWithEvents),
      "session 's', seq 4: stored history cannot be read (the session's counters disagree with its events); run 'navstore verify' before checkpointing"
    ),
    (
      .payloadsInWireFormat,
      "the events' JSON Lines are whole wire-format events (they import back), so they cannot omit payloads; export the events as CSV instead"
    ),
    (
      .forgottenSession(session, at: Timestamp(millisecondsSince1970: 0)),
      "the session 's' was forgotten at 1970-01-01T00:00:00.000Z; its id is not used again (choose another)"
    ),
    (
      .diskFailed(path: "/a/x", disk),
      "the disk failed while syncing to disk '/a/x' (SQLite error 1034); nothing of the transaction was kept — check the disk (free space, 'dmesg', a network mount that went away) and retry"
    ),
    (
      .lineFailed(line: 4, .unknownSession(session)),
      "line 4: no session 's' in the store (list them with 'navstore sessions')"
    ),
  ])
  func eachErrorGetsItsAdvice(_ error: StoreError, _ line: String) {
    #expect(error.terminalMessage == line)
  }

  @Test func aReimportedStartSaysHowLinesWithSeqsAreSkipped() {
    let started = StoreError.rejected(
      session: Self.session, seq: 4, NavigationError(operation: "start", path: .top, reason: .alreadyStarted))
    let message = StoreError.lineFailed(line: 3, started).terminalMessage
    #expect(message.hasPrefix("line 3: \(started)"))
    #expect(message.contains("as `history --json` and `export --format jsonl` write them"))
  }

  /// What a prune on PostgreSQL says of the months it emptied: the months whose space came back
  /// on stdout, a warning that it did not on stderr, nothing when no month was left empty.
  @Test(
    arguments: [
      (PartitionSweepResult.dropped([]), nil, false),
      (
        .dropped([199_903, 202_011]), "dropped the partitions of 1999-03, 2020-11: no session of theirs is left", false
      ),
      (.keptWhileBusy([202_401]), "the partitions of 2024-01 stay until a later prune: the tables stayed busy", true),
      (
        .failed(.database(address: "postgres://db/x", reason: "connection reset")),
        "the partitions of the months left empty stay until a later prune: the database at postgres://db/x failed: connection reset (is the server running, and does the address name its user and database?)",
        true
      ),
    ] as [(PartitionSweepResult, String?, Bool)])
  func aPruneSaysWhetherTheSpaceOfEmptiedMonthsCameBack(_ result: PartitionSweepResult, _ line: String?, _ warns: Bool)
  {
    #expect(result.terminalLine?.text == line)
    #expect((result.terminalLine?.isWarning ?? false) == warns)
  }

  @Test func errorsWithoutAdviceAreTheStoresOwnWords() {
    let error = StoreError.seqBeyondHistory(session: Self.session, seq: 9, last: 3)
    #expect(error.terminalMessage == error.description)
  }
}
