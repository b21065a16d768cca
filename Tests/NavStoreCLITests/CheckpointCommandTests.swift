import Foundation
@_spi(Internals) import NavCore
import NavTestSupport
import Testing

/// A store checkpointed, handed over and audited end to end from the command line.
@Suite(.waitsOnProcesses) struct CheckpointCommandTests: CommandSuite {
  let folder: URL
  /// Removed, with what the test wrote, when the test ends.
  let temporary: TemporaryFolder

  init() throws {
    temporary = try TemporaryFolder()
    folder = temporary.url
    #expect(try navstore("demo", "--db", "d.sqlite").status == 0)
    #expect(try navstore("keygen", "--out", "k.key", "--name", "acme-audit").status == 0)
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// The verifier key `keygen` printed, into a file.
  func publicKey(of key: String, name: String, into file: String) throws {
    try NavStoreProcess.makeKey(key, name: name, verifierInto: file, in: folder)
  }

  @Test func keygenWritesAnOwnerOnlyKeyPrintsItsVerifierAndNeverOverwrites() throws {
    let made = try navstore("keygen", "--out", "new.key", "--name", "team")
    #expect(made.status == 0)
    #expect(made.stdout.hasPrefix("team+") && made.stdout.split(separator: "+").count >= 3)
    let attributes = try FileManager.default.attributesOfItem(atPath: path("new.key"))
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let before = try String(contentsOfFile: path("new.key"), encoding: .utf8)
    let again = try navstore("keygen", "--out", "new.key")
    #expect(again.status != 0)
    #expect(again.stderr.contains("exists"))
    #expect(try String(contentsOfFile: path("new.key"), encoding: .utf8) == before)
    #expect(try navstore("keygen", "--out", "x.key", "--name", "a b").status != 0)
  }

  @Test func anIntactStoreVerifiesAgainstItsCheckpointAndACutOneDoesNot() throws {
    try publicKey(of: "k2.key", name: "acme-audit2", into: "k2.pub")
    #expect(try navstore("checkpoint", "--db", "d.sqlite", "--key", "k2.key", "--out", "c.note").status == 0)
    let intact = try navstore("verify", "--db", "d.sqlite", "--checkpoint", "c.note", "--key", "k2.pub")
    #expect(intact.status == 0, "\(intact.stderr)")
    #expect(intact.stdoutLines.last?.hasSuffix("signed by acme-audit2): 0 problems") == true)

    // Cut a session short and fix its row: the chain alone holds, the checkpoint does not.
    let shown = try navstore("show", "demo-browse-2", "--at", "5", "--json", "--db", "d.sqlite")
    let depthAtFive = try WireFormat.decode(AnyCoordinator.self, from: shown.stdout).visibleDepth
    let connection = try sqlite(path("d.sqlite"))
    try connection.run(
      """
      DROP TRIGGER events_are_append_only_delete;
      DELETE FROM snapshots WHERE session_id = 'demo-browse-2' AND seq > 5;
      DELETE FROM events WHERE session_id = 'demo-browse-2' AND seq > 5;
      UPDATE sessions SET event_count = 5, head_hash = (SELECT hash FROM events WHERE session_id = 'demo-browse-2' AND seq = 5),
        duration_ms = (SELECT max(at) - min(at) FROM events WHERE session_id = 'demo-browse-2'),
        foreground_ms = (SELECT max(at) - min(at) FROM events WHERE session_id = 'demo-browse-2'),
        last_at = (SELECT max(at) FROM events WHERE session_id = 'demo-browse-2'), depth = \(depthAtFive),
        phase = 'foreground' WHERE id = 'demo-browse-2';
      """)
    #expect(try navstore("verify", "--db", "d.sqlite").status == 0)
    let cut = try navstore("verify", "--db", "d.sqlite", "--checkpoint", "c.note", "--key", "k2.pub")
    #expect(cut.status != 0)
    #expect(
      cut.stderrLines == [
        "navstore: against the checkpoint, demo-browse-2 at seq 10: TRUNCATED, the session now has 5 events"
      ])
  }

  @Test func aCheckpointSignedByAnotherKeyOrEditedIsRefused() throws {
    try publicKey(of: "other.key", name: "acme-audit", into: "other.pub")
    try publicKey(of: "k3.key", name: "acme-audit3", into: "k3.pub")
    #expect(try navstore("checkpoint", "--db", "d.sqlite", "--key", "k3.key", "--out", "c.note").status == 0)
    let wrongKey = try navstore("verify", "--db", "d.sqlite", "--checkpoint", "c.note", "--key", "other.pub")
    #expect(wrongKey.status != 0)
    #expect(wrongKey.stderr.contains("signature"))
    let note = try String(contentsOfFile: path("c.note"), encoding: .utf8)
    try note.replacingOccurrences(of: "events ", with: "events 1").write(
      toFile: path("edited.note"), atomically: true, encoding: .utf8)
    let edited = try navstore("verify", "--db", "d.sqlite", "--checkpoint", "edited.note", "--key", "k3.pub")
    #expect(edited.status != 0)
    #expect(edited.stderr.contains("does not hold for the note's text"))
  }

  @Test func aProofAndAHistoryAreCheckedWithoutTheStore() throws {
    try publicKey(of: "k4.key", name: "acme-audit4", into: "k4.pub")
    #expect(try navstore("checkpoint", "--db", "d.sqlite", "--key", "k4.key", "--out", "c.note").status == 0)
    let proof = try navstore("prove", "demo-onboarding", "--db", "d.sqlite", "--checkpoint", "c.note")
    #expect(proof.status == 0)
    try proof.stdout.write(toFile: path("p.json"), atomically: true, encoding: .utf8)
    #expect(
      try navstore(
        "export", "--db", "d.sqlite", "--table", "events", "--format", "jsonl", "--session", "demo-onboarding", "--out",
        "h.jsonl"
      ).status == 0)
    try FileManager.default.removeItem(atPath: path("d.sqlite"))
    let checked = try navstore("verify", "--proof", "p.json", "--key", "k4.pub", "--history", "h.jsonl")
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.stdoutLines.last == "the history matches it: its events 1 to 10 give that chain value")
    // The same history with Windows line breaks.
    let history = try String(contentsOfFile: path("h.jsonl"), encoding: .utf8)
    try history.replacingOccurrences(of: "\n", with: "\r\n").write(
      toFile: path("crlf.jsonl"), atomically: true, encoding: .utf8)
    #expect(try navstore("verify", "--proof", "p.json", "--key", "k4.pub", "--history", "crlf.jsonl").status == 0)

    // Another history (a line dropped) does not match; an altered proof does not hold.
    let lines = try String(contentsOfFile: path("h.jsonl"), encoding: .utf8).split(separator: "\n")
    try (lines.prefix(2) + lines.dropFirst(3)).joined(separator: "\n").write(
      toFile: path("h2.jsonl"), atomically: true, encoding: .utf8)
    #expect(try navstore("verify", "--proof", "p.json", "--key", "k4.pub", "--history", "h2.jsonl").status != 0)
    let altered = proof.stdout.replacingOccurrences(of: #""seq":10"#, with: #""seq":9"#)
    #expect(altered != proof.stdout)
    try altered.write(toFile: path("p2.json"), atomically: true, encoding: .utf8)
    let refused = try navstore("verify", "--proof", "p2.json", "--key", "k4.pub")
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("does not lead to the checkpoint's root"))
  }

  @Test(arguments: [
    ["verify", "--checkpoint", "c.note"], ["verify", "--key", "k.pub"], ["verify", "--history", "h.jsonl"],
    ["verify", "--checkpoint", "c.note", "--proof", "p.json", "--key", "k.pub"],
    ["verify", "--proof", "p.json", "--key", "k.pub", "s-1"],
    ["verify", "--checkpoint", "c.note", "--key", "k.pub", "s-1"],
  ])
  func aMisusedVerifyIsRefusedBeforeItRuns(_ arguments: [String]) throws {
    let result = try NavStoreProcess.run(arguments, in: folder)
    #expect(result.status == 64)
    #expect(result.stderrLines.count == 1)
  }
}
