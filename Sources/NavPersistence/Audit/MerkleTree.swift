import Crypto

/// The Merkle tree hashing of RFC 6962 (Certificate Transparency, section 2.1), over which a
/// checkpoint commits to every session: one root for the whole store, and for any one session
/// a short proof that it is in the tree, checkable without the other sessions.
///
/// Leaves and inner nodes are hashed with different prefixes (0x00, 0x01), so no inner node can
/// pass for a leaf. A tree of `n` leaves splits at the largest power of two below `n`.
public enum MerkleTree {
  /// The hash of one leaf's data: SHA-256(0x00 || data).
  public static func leafHash(_ data: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(data: [0x00])
    hasher.update(data: data)
    return Array(hasher.finalize())
  }

  /// The hash of an inner node: SHA-256(0x01 || left || right).
  public static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(data: [0x01])
    hasher.update(data: left)
    hasher.update(data: right)
    return Array(hasher.finalize())
  }

  /// The root of the tree over `leafHashes` (already hashed with `leafHash`); the root of no
  /// leaves is the hash of nothing, as RFC 6962 defines it.
  public static func root(ofLeafHashes leafHashes: [[UInt8]]) -> [UInt8] {
    guard !leafHashes.isEmpty else { return Array(SHA256.hash(data: [UInt8]())) }
    return subtreeRoot(leafHashes[...])
  }

  /// The audit path of leaf `index` (RFC 6962's PATH): the sibling hashes from the leaf up to
  /// the root. `nil` when `index` is not a leaf of the tree.
  public static func inclusionProof(of index: Int, inLeafHashes leafHashes: [[UInt8]]) -> [[UInt8]]? {
    guard leafHashes.indices.contains(index) else { return nil }
    var path: [[UInt8]] = []
    var leaves = leafHashes[...]
    var position = index
    // Down from the root, keeping the half that holds the leaf; the other half's root is a
    // sibling. The path lists siblings from the leaf up, so they are gathered, then reversed.
    while leaves.count > 1 {
      let split = largestPowerOfTwo(below: leaves.count)
      let left = leaves.prefix(split)
      let right = leaves.dropFirst(split)
      if position < split {
        path.append(subtreeRoot(right))
        leaves = left
      } else {
        path.append(subtreeRoot(left))
        leaves = right
        position -= split
      }
    }
    return path.reversed()
  }

  /// Whether `proof` shows the leaf `leafHash`, at `index` in a tree of `size` leaves, under
  /// `root` (the verification of RFC 9162, section 2.1.3.2).
  public static func verify(
    leafHash: [UInt8], index: Int, size: Int, proof: [[UInt8]], root: [UInt8]
  ) -> Bool {
    guard index >= 0, index < size else { return false }
    var fn = index
    var sn = size - 1
    var hash = leafHash
    for sibling in proof {
      guard sn != 0 else { return false }
      if fn & 1 == 1 || fn == sn {
        hash = nodeHash(sibling, hash)
        if fn & 1 == 0 {
          repeat {
            fn >>= 1
            sn >>= 1
          } while fn & 1 == 0 && fn != 0
        }
      } else {
        hash = nodeHash(hash, sibling)
      }
      fn >>= 1
      sn >>= 1
    }
    return sn == 0 && hash == root
  }

  private static func subtreeRoot(_ leaves: ArraySlice<[UInt8]>) -> [UInt8] {
    if leaves.count == 1, let only = leaves.first { return only }
    let split = largestPowerOfTwo(below: leaves.count)
    return nodeHash(subtreeRoot(leaves.prefix(split)), subtreeRoot(leaves.dropFirst(split)))
  }

  /// The largest power of two strictly below `count` (which is at least 2).
  private static func largestPowerOfTwo(below count: Int) -> Int {
    var power = 1
    while power << 1 < count { power <<= 1 }
    return power
  }
}
