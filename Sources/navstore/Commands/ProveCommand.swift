import ArgumentParser
import NavCore
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// `navstore prove`: the proof that one session is in a checkpoint.
struct ProveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "prove",
    abstract: "Print the proof (a Merkle path) that a session is in a checkpoint, as JSON.",
    discussion: """
      The proof holds the checkpoint, the session's entry (id, seq, chain value) and the path \
      to the root. With the verifier key, 'navstore verify --proof FILE --key KEY' checks it \
      without the store, and with --history also the session's exported history against it: \
      hand an auditor those three files and nothing of the other sessions.

      Examples:
        navstore prove s-1 --checkpoint checkpoints/2026-11-23.note > s-1.proof.json
        navstore export --table events --format jsonl --session s-1 --out s-1.jsonl
      """)

  @OptionGroup var store: StoreOption

  @Argument(help: "The session.", transform: sessionArgument)
  var session: SessionID

  @Option(help: "The checkpoint file.")
  var checkpoint: String

  func run() async throws {
    let note = try AuditFiles.note(checkpoint, option: "--checkpoint")
    let session = session
    let proof = try await store.withSessions { sessions in try await sessions.proof(of: session, in: note) }
    print(proof.json)
  }
}
