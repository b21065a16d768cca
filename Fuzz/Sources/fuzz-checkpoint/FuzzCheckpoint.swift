import FuzzSupport
@_spi(Internals) import NavArchive
@_spi(Internals) import NavPersistence

/// The verifier key of the seeds' checkpoint and proof (`make-corpus.py`'s notes were signed by
/// its private half), so verification runs to its end on inputs close to them.
let seedVerifier = "fuzz+e4afa841+AReRXjGGKVmZf8T8EBQdvEl75FvISmK4geRWQFYMNaLc"

/// A signed note, a checkpoint's text and a session's proof, as an auditor receives them from
/// others: each parses or is refused with an error; what parses writes text that parses to the
/// same value; verifying with a key never crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCheckpoint(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let text = String(decoding: input(data, size), as: UTF8.self)
  guard let verifier = try? NoteVerifier(text: seedVerifier) else { violated("the seed verifier key does not parse") }
  if let note = try? SignedNote(parsing: text) {
    guard let again = try? SignedNote(parsing: note.serialized), again == note else {
      violated("a signed note's serialized text does not parse back to it")
    }
    _ = try? note.verify(with: verifier)
    if let checkpoint = try? Checkpoint(text: note.text) {
      guard let reread = try? Checkpoint(text: checkpoint.text), reread == checkpoint else {
        violated("a checkpoint's text does not parse back to it")
      }
    }
  }
  if let checkpoint = try? Checkpoint(text: text) {
    guard let reread = try? Checkpoint(text: checkpoint.text), reread == checkpoint else {
      violated("a checkpoint's text does not parse back to it")
    }
  }
  if let proof = try? SessionProof(json: text) {
    guard let again = try? SessionProof(json: proof.json), again == proof else {
      violated("a proof's JSON does not parse back to it")
    }
    _ = try? proof.verify(with: verifier)
  }
  return 0
}
