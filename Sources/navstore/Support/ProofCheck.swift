import Foundation
@_spi(Internals) import NavArchive
import NavCore
@_spi(Internals) import NavPersistence

/// `navstore verify --proof`: one session's proof checked without the store, and optionally
/// the session's exported history against it.
struct ProofCheck {
  let proofPath: String
  let key: NoteVerifier
  let historyPath: String?

  func run() throws(CLIError) {
    let proof: SessionProof
    do {
      proof = try SessionProof(json: try AuditFiles.text(proofPath, option: "--proof"))
    } catch let error as CLIError {
      throw error
    } catch {
      throw CLIError("--proof: '\(proofPath)' is not a NavStore proof: \(error)")
    }
    let checkpoint: Checkpoint
    do {
      checkpoint = try proof.verify(with: key)
    } catch {
      throw CLIError("--proof: \(error)")
    }
    let entry = proof.entry
    print(
      "the proof holds: \(entry.session) at seq \(entry.seq), chain value \(HashChain.hex(entry.hash)), is in the "
        + "checkpoint of \(checkpoint.origin) of \(checkpoint.time) (\(checkpoint.sessionCount) sessions), "
        + "signed by \(key.name)"
    )
    guard let historyPath else { return }
    let computed = try chainValue(of: entry.session, at: entry.seq, in: historyPath)
    guard computed == entry.hash else {
      throw CLIError(
        "--history: the history's chain value at seq \(entry.seq) is \(HashChain.hex(computed)), not the proof's: the history is not the one checkpointed"
      )
    }
    print("the history matches it: its events 1 to \(entry.seq) give that chain value")
  }

  /// The chain value after event `seq` of `session`, from a JSON Lines history.
  private func chainValue(of session: SessionID, at seq: Int, in path: String) throws(CLIError) -> [UInt8] {
    let text = try AuditFiles.text(path, option: "--history")
    var chain = HashChain.genesis
    var next = 1
    // Any line break, CRLF included (Swift reads "\r\n" as one character).
    for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
    where !line.isEmpty {
      let event: AnyEvent
      do {
        event = try WireFormat.decode(AnyEvent.self, from: String(line))
      } catch {
        throw CLIError("--history: line \(number + 1) is not an event: \(error)")
      }
      guard event.session == session else { continue }
      // A stored event has its seq, and its chain value covers it: a line without one cannot
      // be the event that was checkpointed.
      guard event.seq == next else {
        let found = event.seq.map { "seq \($0)" } ?? "an event without a seq"
        throw CLIError(
          "--history: line \(number + 1) is \(found) of \(session), expected seq \(next) (export the history with "
            + "'navstore export --table events --format jsonl')"
        )
      }
      do {
        chain = try HashChain.hash(of: event, after: chain)
      } catch {
        throw CLIError("--history: line \(number + 1) cannot be hashed: \(error)")
      }
      if next == seq { return chain }
      next += 1
    }
    throw CLIError("--history: '\(path)' holds \(next - 1) events of \(session), fewer than the proof's seq \(seq)")
  }
}
