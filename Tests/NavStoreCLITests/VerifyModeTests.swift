import ArgumentParser
import Testing

@testable import navstore

/// `verify`'s options make one of three checks; any other combination is refused before the
/// store is opened, saying which option goes with which.
@Suite(.waitsOnProcesses) struct VerifyModeTests {
  @Test(arguments: [
    (["s-1", "s-2"], "chains"),
    (["--checkpoint", "c.note", "--key", "k.pub"], "checkpoint c.note k.pub"),
    (["--proof", "p.json", "--key", "k.pub"], "proof p.json k.pub -"),
    (["--proof", "p.json", "--key", "k.pub", "--history", "h.jsonl"], "proof p.json k.pub h.jsonl"),
  ])
  func optionsMakeOneMode(_ arguments: [String], _ expected: String) throws {
    let mode = try VerifyCommand.parse(arguments).mode()
    let described =
      switch mode {
      case .chains: "chains"
      case .checkpoint(let note, let key): "checkpoint \(note) \(key)"
      case .proof(let file, let key, let history): "proof \(file) \(key) \(history ?? "-")"
      }
    #expect(described == expected)
  }

  @Test(arguments: [
    (["--history", "h.jsonl"], "--history goes with --proof"),
    (["--key", "k.pub"], "--key goes with --checkpoint or --proof"),
    (
      ["--checkpoint", "c", "--proof", "p", "--key", "k"], "--checkpoint and --proof are two different checks; give one"
    ),
    (["--proof", "p"], "--checkpoint and --proof need --key, the verifier key of the checkpoint's signer"),
    (["--checkpoint", "c"], "--checkpoint and --proof need --key, the verifier key of the checkpoint's signer"),
    (["--checkpoint", "c", "--key", "k", "--history", "h"], "--history goes with --proof"),
    (
      ["--checkpoint", "c", "--key", "k", "s-1"],
      "--checkpoint audits every session it names, with their chains; name no sessions"
    ),
    (["--proof", "p", "--key", "k", "s-1"], "--proof checks the one session it proves; name no sessions"),
  ])
  func anyOtherCombinationIsRefused(_ arguments: [String], _ message: String) {
    #expect(throws: (any Error).self) { try VerifyCommand.parse(arguments) }
    do {
      _ = try VerifyCommand.parse(arguments)
    } catch {
      #expect(VerifyCommand.message(for: error) == message)
    }
  }
}
