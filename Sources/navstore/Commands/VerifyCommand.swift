import ArgumentParser
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// `navstore verify`: checks sessions' histories against their hash chains.
struct VerifyCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verify",
    abstract: "Check every (or the named) session: hash chain, sequence, snapshots.",
    discussion: """
      Prints each session that fails (with the first bad seq and why), then one summary line: \
      sessions checked, events, problems. --verbose also prints a line for every intact session. \
      A session whose device clock went back (an event earlier than the one before it) gets a \
      note line and is counted after the problems; it is not a problem, since times are kept as \
      the device gave them. \
      Exits non-zero naming the first bad session and seq. Sessions are checked one at a time, \
      so a store of any size verifies in constant memory.

      The chain alone proves the history was not edited, removed or reordered since it was \
      written; it cannot see a chain rewritten whole, or cut short with its counters fixed, by \
      someone with write access. --checkpoint also audits every session of a signed checkpoint \
      (navstore checkpoint): each must still have, at the checkpointed seq, that chain value. \
      --proof checks one session's proof (navstore prove) without the store, and --history that \
      session's exported events against it.

      Examples:
        navstore verify
        navstore verify --verbose s-1 s-2
        navstore verify --checkpoint checkpoints/2026-11-23.note --key auditor.pub
        navstore verify --proof s-1.proof.json --key auditor.pub --history s-1.jsonl
      """)

  @OptionGroup var store: StoreOption

  @Flag(name: .shortAndLong, help: "Print one line per session, intact or not.")
  var verbose = false

  @Argument(help: "The sessions to check (default: all).", transform: sessionArgument)
  var sessions: [SessionID] = []

  @Option(help: "Also audit the store against this signed checkpoint (needs --key).")
  var checkpoint: String?

  @Option(help: "Check this proof of one session, without the store (needs --key).")
  var proof: String?

  @Option(help: "The verifier key of the checkpoint's signer: its text, or a file holding it.")
  var key: String?

  @Option(help: "With --proof: the session's history as JSON Lines, checked against the proof.")
  var history: String?

  /// What the options ask for: the three checks `verify` makes, each with what it needs.
  enum Mode {
    /// The chains of every (or the named) session.
    case chains
    /// The chains, then every session of a signed checkpoint.
    case checkpoint(note: String, key: String)
    /// One session's proof, without the store, and the session's exported history against it.
    case proof(file: String, key: String, history: String?)
  }

  /// The mode the options make, or why they make none.
  func mode() throws(ValidationError) -> Mode {
    switch (checkpoint, proof, key) {
    case (nil, nil, nil):
      guard history == nil else { throw ValidationError("--history goes with --proof") }
      return .chains
    case (nil, nil, _?):
      throw ValidationError("--key goes with --checkpoint or --proof")
    case (_?, _?, _):
      throw ValidationError("--checkpoint and --proof are two different checks; give one")
    case (_, _, nil):
      throw ValidationError("--checkpoint and --proof need --key, the verifier key of the checkpoint's signer")
    case (let note?, nil, let key?):
      guard history == nil else { throw ValidationError("--history goes with --proof") }
      guard sessions.isEmpty else {
        throw ValidationError("--checkpoint audits every session it names, with their chains; name no sessions")
      }
      return .checkpoint(note: note, key: key)
    case (nil, let file?, let key?):
      guard sessions.isEmpty else {
        throw ValidationError("--proof checks the one session it proves; name no sessions")
      }
      return .proof(file: file, key: key, history: history)
    }
  }

  func validate() throws {
    _ = try mode()
  }

  func run() async throws {
    let audit: (note: SignedNote, key: NoteVerifier)?
    switch try mode() {
    case .chains:
      audit = nil
    case .checkpoint(let note, let key):
      audit = (try AuditFiles.note(note, option: "--checkpoint"), try AuditFiles.verifier(key))
    case .proof(let file, let key, let history):
      try ProofCheck(proofPath: file, key: AuditFiles.verifier(key), historyPath: history).run()
      return
    }
    let progress = ProgressCounter(label: "verifying", unit: "sessions")
    var checked = 0
    var clockJumpSessions = 0
    let take = { (result: VerificationResult) in
      checked += 1
      progress.update(checked)
      if let failure = result.failure {
        progress.clear()
        print("\(result.session): FAILED at seq \(failure.seq): \(failure.problem)")
      } else if verbose {
        progress.clear()
        print("\(result.session): ok (\(Self.events(result.eventCount)))")
      }
      if let first = result.firstClockJump {
        // Not a problem (the times are the device's claims), but durations read differently.
        progress.clear()
        clockJumpSessions += 1
        let times = result.clockJumps == 1 ? "once" : "\(result.clockJumps) times"
        print("\(result.session): note: the clock went back \(times), first at seq \(first) (times kept as recorded)")
      }
    }
    let named = sessions
    try await store.withSessions { source in
      let summary = try await source.verify(named.isEmpty ? nil : named, each: take)
      progress.finish()
      try await finish(summary, clockJumpSessions: clockJumpSessions, audit: audit) { note, key, each in
        try await source.audit(against: note, key: key, each: each)
      }
    }
  }

  /// The summary line, the checkpoint's audit when there is one (run by `auditing`, on the
  /// store or the database), and the exit status: the first failing session's line, or the
  /// checkpoint's first problem. The audit prints each session not intact (and with --verbose
  /// every session); its summary line follows.
  private func finish(
    _ summary: VerificationSummary, clockJumpSessions: Int, audit: (note: SignedNote, key: NoteVerifier)?,
    auditing: (SignedNote, NoteVerifier, @escaping @Sendable (CheckpointFinding) -> Void) async throws
      -> CheckpointAudit
  ) async throws {
    let problems = summary.failures == 1 ? "1 problem" : "\(summary.failures) problems"
    // An empty store says so, after the summary scripts read.
    var suffix = summary.sessions == 0 && sessions.isEmpty ? " (the store has no sessions yet)" : ""
    if clockJumpSessions > 0 {
      suffix += "; \(clockJumpSessions) session\(clockJumpSessions == 1 ? "" : "s") with the clock going back"
    }
    print(
      "verified \(summary.sessions) session\(summary.sessions == 1 ? "" : "s"), \(Self.events(summary.events)): \(problems)\(suffix)"
    )
    var checkpointProblem: CheckpointFinding?
    if let audit {
      let verbose = verbose
      let result = try await auditing(audit.note, audit.key) { finding in
        if verbose || !finding.isIntact { print("checkpoint: \(finding)") }
      }
      let problems = result.problems == 1 ? "1 problem" : "\(result.problems) problems"
      let forgotten = result.forgotten > 0 ? ", \(result.forgotten) forgotten since" : ""
      print(
        "checkpoint of \(result.checkpoint.time) (\(result.checkpoint.sessionCount) sessions, "
          + "\(Self.events(result.checkpoint.eventCount)), signed by \(audit.key.name)): \(problems)\(forgotten)"
      )
      checkpointProblem = result.firstProblem
    }
    if let bad = summary.firstFailure, let failure = bad.failure {
      throw CLIError("session '\(bad.session)' fails verification at seq \(failure.seq): \(failure.problem)")
    }
    if let checkpointProblem { throw CLIError("against the checkpoint, \(checkpointProblem)") }
  }

  private static func events(_ count: Int) -> String { "\(count) event\(count == 1 ? "" : "s")" }
}
