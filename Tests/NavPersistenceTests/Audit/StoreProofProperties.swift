import Foundation
@_spi(Internals) import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

/// Proofs from real stores of 1 to 1,000 sessions: every session's proof, read back from its
/// JSON, verifies without the store, and the same proof with any one byte changed does not.
@Suite struct StoreProofProperties {
  /// A store of `count` sessions of one to three events each, and a checkpoint of it.
  static func checkpointedStore(sessions count: Int, in folder: TemporaryFolder, using rng: inout SeededRandom) throws
    -> (SessionStore, SignedNote, NoteSigner)
  {
    let store = try SessionStore(path: folder.path("p\(count).sqlite"))
    var lines: [String] = []
    for index in 0..<count {
      let id = "s-\(index)-\(rng.next() % 1_000)"
      lines.append(try WireFormat.canonicalString(event(id, .start(.stack(stack("R+home"))))))
      for step in 0..<Int.random(in: 0...2, using: &rng) {
        lines.append(
          try WireFormat.canonicalString(event(id, .push(.string("screen\(step)")), offset: Int64(step + 1))))
      }
    }
    try store.importJSONLines(from: LinesInMemory(lines))
    let signer = try NoteSigner(name: "auditor")
    return (
      store, try store.checkpoint(signedBy: signer, at: Timestamp(millisecondsSince1970: 1_795_000_000_000)), signer
    )
  }

  @Test(arguments: [1, 2, 3, 7, 64, 257, 1_000])
  func everySessionsProofVerifiesAndNoChangedByteDoes(sessions count: Int) throws {
    let folder = try TemporaryFolder()
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    let (store, note, signer) = try Self.checkpointedStore(sessions: count, in: folder, using: &rng)
    let summaries = try store.sessions()
    #expect(summaries.count == count)
    // Every session of small stores; a sample of large ones (each proof reads the checkpoint).
    let checked = count <= 64 ? summaries : (0..<20).compactMap { _ in summaries.randomElement(using: &rng) }
    for summary in checked {
      let json = try store.proof(of: summary.id, in: note).json
      let proof = try SessionProof(json: json)
      #expect(proof.entry.session == summary.id && proof.entry.seq == summary.eventCount, "seed \(seed)")
      #expect(try proof.verify(with: signer.verifier).sessionCount == count, "seed \(seed)")
      var bytes = Array(json.utf8)
      for _ in 0..<8 {
        let position = Int.random(in: 0..<bytes.count, using: &rng)
        let original = bytes[position]
        bytes[position] =
          ByteMutations.interesting.filter { $0 != original }.randomElement(using: &rng) ?? (original ^ 1)
        let changed = String(decoding: bytes, as: UTF8.self)
        do {
          _ = try SessionProof(json: changed).verify(with: signer.verifier)
          Issue.record(
            "seed \(seed): a proof changed at byte \(position) (\(original) → \(bytes[position])) verified: \(changed)")
        } catch {}
        bytes[position] = original
      }
    }
  }
}
