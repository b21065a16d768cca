import ArgumentParser
import NavCore
import NavFleet
@_spi(Internals) import NavPersistence
@_spi(Internals) import NavTools

/// `navstore checkpoint`: a signed checkpoint of the whole store.
struct CheckpointCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "checkpoint",
    abstract: "Write a signed checkpoint of every session (a Merkle root over their chains).",
    discussion: """
      The checkpoint is a signed note (C2SP signed-note and tlog-checkpoint formats): the store's \
      origin line, the number of sessions, the Merkle root (RFC 6962) over every session's id, \
      last seq and chain value, the number of events, the time, and the signature. The store \
      keeps every checkpoint it wrote. Keep the file somewhere the store's writers cannot change \
      (another machine, a ticket, an email): 'navstore verify --checkpoint' then finds any \
      session cut short, rewritten or removed since.

      On a PostgreSQL store (--db postgres://...), the checkpoint is of one app's sessions \
      (--app), and the database keeps it.

      Examples:
        navstore checkpoint --key ~/.navstore/auditor.key --out checkpoints/2026-11-23.note
        navstore checkpoint --key auditor.key --at 2026-11-23T00:00:00.000Z
        navstore checkpoint --db postgres://navstore@db.internal/navstore --app shop --key auditor.key
      """)

  @OptionGroup var store: StoreOption

  @Option(help: "The signing key file ('navstore keygen' writes one).")
  var key: String

  @Option(help: "Write the checkpoint to this file (it must not exist) instead of standard output.")
  var out: String?

  @Option(help: "The checkpoint's time (default: now), like 2026-11-23T00:00:00.000Z.", transform: timeArgument)
  var at: Timestamp?

  func run() async throws {
    let signer = try AuditFiles.signer(key)
    let time = at ?? now()
    let note = try await store.withSessions(writing: true) { sessions in
      try await sessions.checkpoint(signedBy: signer, at: time)
    }
    guard let out else {
      print(note.serialized, terminator: "")
      return
    }
    try AuditFiles.create(out, contents: note.serialized, option: "--out")
    do {
      let checkpoint = try Checkpoint(text: note.text)
      print("checkpoint of \(checkpoint.sessionCount) sessions and \(checkpoint.eventCount) events written to \(out)")
    } catch {
      throw CLIError("the checkpoint written to \(out) does not read back: \(error)")
    }
  }
}
