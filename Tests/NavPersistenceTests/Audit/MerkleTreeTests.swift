@_spi(Internals) import NavArchive
@_spi(Internals) import NavPersistence
import NavTestSupport
import Testing

/// RFC 6962 hashing: roots and proofs held to values computed outside NavStore, and every
/// proof of random trees checked, with any changed byte refused.
@Suite struct MerkleTreeTests {
  static func hex(_ bytes: [UInt8]) -> String { HashChain.hex(bytes) }
  static func leaf(_ text: String) -> [UInt8] { MerkleTree.leafHash(Array(text.utf8)) }

  /// Computed by hand with Python's hashlib: SHA-256(0x00 || "alpha"), and so on.
  @Test func rootsOfOneTwoAndThreeLeavesAreRFC6962s() {
    let (alpha, beta, gamma) = (Self.leaf("alpha"), Self.leaf("beta"), Self.leaf("gamma"))
    #expect(
      Self.hex(MerkleTree.root(ofLeafHashes: [])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(Self.hex(alpha) == "2a158d8afd48e3f88cb4195dfdb2a9e4817d95fa57fd34440d93f9aae5c4f82b")
    #expect(Self.hex(MerkleTree.root(ofLeafHashes: [alpha])) == Self.hex(alpha))
    #expect(
      Self.hex(MerkleTree.root(ofLeafHashes: [alpha, beta]))
        == "983cb57c04cddd52634edab38a7bef85708a974f114bbd9aa9ec5d4ce6656b4b")
    #expect(
      Self.hex(MerkleTree.root(ofLeafHashes: [alpha, beta, gamma]))
        == "385da30f3917282c8939dff851957e519ab1846b1351a14c0adb3b11632742aa")
  }

  @Test func proofsInATreeOfThreeAreRFC6962s() {
    let leaves = [Self.leaf("alpha"), Self.leaf("beta"), Self.leaf("gamma")]
    #expect(
      MerkleTree.inclusionProof(of: 2, inLeafHashes: leaves)?.map(Self.hex) == [
        "983cb57c04cddd52634edab38a7bef85708a974f114bbd9aa9ec5d4ce6656b4b"
      ])
    #expect(
      MerkleTree.inclusionProof(of: 0, inLeafHashes: leaves)?.map(Self.hex) == [
        "e23537b050e84af2cbaab46f2f83d8d3b5febc8e5ac6200d306284f687d46924",
        "4c79d0d62f7cf5ca8874155f2d3b875f2625da2bb3abc86bbd6833f25ba90e51",
      ])
    #expect(MerkleTree.inclusionProof(of: 3, inLeafHashes: leaves) == nil)
    #expect(MerkleTree.inclusionProof(of: 0, inLeafHashes: [leaves[0]]) == [])
  }

  /// Trees of every size up to 64, then random sizes up to 1,000: every leaf's proof verifies;
  /// one changed byte of the proof, the leaf or the root, a step missing or another index does not.
  @Test func everyProofOfRandomTreesVerifiesAndNoAlteredOneDoes() {
    let seed = UInt64.random(in: 0...UInt64.max)
    var rng = SeededRandom(seed: seed)
    let sizes = Array(1...64) + (0..<4).map { _ in Int.random(in: 65...1_000, using: &rng) } + [1_000]
    for size in sizes {
      let leaves = (0..<size).map { MerkleTree.leafHash(Array("session-\($0)-\(rng.next())".utf8)) }
      let root = MerkleTree.root(ofLeafHashes: leaves)
      // Every leaf of small trees; a sample of large ones (each proof costs a pass over the tree).
      let checked =
        size <= 64 ? Array(0..<size) : (0..<24).map { _ in Int.random(in: 0..<size, using: &rng) } + [0, size - 1]
      for index in checked {
        guard let proof = MerkleTree.inclusionProof(of: index, inLeafHashes: leaves) else {
          Issue.record("seed \(seed): no proof of \(index) in \(size)")
          continue
        }
        #expect(
          MerkleTree.verify(leafHash: leaves[index], index: index, size: size, proof: proof, root: root),
          "seed \(seed): \(index) of \(size)")
        #expect(
          !MerkleTree.verify(
            leafHash: leaves[index], index: index, size: size, proof: proof, root: Self.flipped(root, using: &rng)))
        #expect(
          !MerkleTree.verify(
            leafHash: Self.flipped(leaves[index], using: &rng), index: index, size: size, proof: proof, root: root))
        if !proof.isEmpty {
          var altered = proof
          let step = Int.random(in: 0..<proof.count, using: &rng)
          altered[step] = Self.flipped(altered[step], using: &rng)
          #expect(
            !MerkleTree.verify(leafHash: leaves[index], index: index, size: size, proof: altered, root: root),
            "seed \(seed)")
          #expect(
            !MerkleTree.verify(
              leafHash: leaves[index], index: index, size: size, proof: Array(proof.dropLast()), root: root))
        }
        if size > 1 {
          let other = (index + 1) % size
          #expect(
            !MerkleTree.verify(leafHash: leaves[index], index: other, size: size, proof: proof, root: root),
            "seed \(seed)")
        }
      }
    }
  }

  static func flipped(_ bytes: [UInt8], using rng: inout SeededRandom) -> [UInt8] {
    var copy = bytes
    copy[Int.random(in: 0..<copy.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
    return copy
  }
}
