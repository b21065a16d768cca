import Crypto
@_spi(Internals) import NavHistory

/// The Merkle tree hashing of RFC 6962 (Certificate Transparency, section 2.1), over which a
/// checkpoint commits to every session: one root for the whole store, and for any one session
/// a short proof that it is in the tree, checkable without the other sessions.
///
/// Leaves and inner nodes are hashed with different prefixes (0x00, 0x01), so no inner node can
/// pass for a leaf. A tree of `n` leaves splits at the largest power of two below `n`.
///
/// Roots and proofs are built from leaves streamed in order (`RootBuilder`, `ProofBuilder`),
/// in memory that grows with the tree's height, not its size: a store of half a million
/// sessions is checkpointed without holding them.
package enum MerkleTree {
  /// The hash of one leaf's data: SHA-256(0x00 || data).
  package static func leafHash(_ data: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(data: [0x00])
    hasher.update(data: data)
    return Array(hasher.finalize())
  }

  /// The hash of an inner node: SHA-256(0x01 || left || right).
  package static func nodeHash(_ left: [UInt8], _ right: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(data: [0x01])
    hasher.update(data: left)
    hasher.update(data: right)
    return Array(hasher.finalize())
  }

  /// The root of the tree over `leafHashes` (already hashed with `leafHash`); the root of no
  /// leaves is the hash of nothing, as RFC 6962 defines it.
  package static func root(ofLeafHashes leafHashes: [[UInt8]]) -> [UInt8] {
    var builder = RootBuilder()
    for leaf in leafHashes { builder.append(leaf) }
    return builder.root
  }

  /// The audit path of leaf `index` (RFC 6962's PATH): the sibling hashes from the leaf up to
  /// the root. `nil` when `index` is not a leaf of the tree.
  package static func inclusionProof(of index: Int, inLeafHashes leafHashes: [[UInt8]]) -> [[UInt8]]? {
    guard var builder = ProofBuilder(index: index, size: leafHashes.count) else { return nil }
    for leaf in leafHashes { builder.append(leaf) }
    return builder.path
  }

  /// Whether `proof` shows the leaf `leafHash`, at `index` in a tree of `size` leaves, under
  /// `root` (the verification of RFC 9162, section 2.1.3.2).
  package static func verify(
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

  /// The root of a tree whose leaves arrive one at a time, in order. It keeps the roots of the
  /// complete subtrees so far, one per bit of the count (a binary counter's carries are the
  /// merges); the root folds them from the right, which is RFC 6962's split at the largest
  /// power of two.
  package struct RootBuilder: Sendable {
    /// Complete subtrees, largest (leftmost) first: their leaf counts and roots.
    private var subtrees: [(count: Int, hash: [UInt8])] = []
    /// The leaves appended.
    package private(set) var count = 0

    /// An empty tree.
    package init() {}

    /// Appends the next leaf's hash.
    package mutating func append(_ leafHash: [UInt8]) {
      count += 1
      subtrees.append((1, leafHash))
      while subtrees.count >= 2, subtrees[subtrees.count - 1].count == subtrees[subtrees.count - 2].count {
        let right = subtrees.removeLast()
        let left = subtrees.removeLast()
        subtrees.append((left.count * 2, nodeHash(left.hash, right.hash)))
      }
    }

    /// The root of the leaves so far.
    package var root: [UInt8] {
      guard var hash = subtrees.last?.hash else { return Array(SHA256.hash(data: [UInt8]())) }
      for subtree in subtrees.dropLast().reversed() { hash = nodeHash(subtree.hash, hash) }
      return hash
    }
  }

  /// The audit path of one leaf, from the leaves streamed in order: each sibling on the path is
  /// the root of a range of leaves (known from the index and the size alone), built as its
  /// leaves go by.
  package struct ProofBuilder: Sendable {
    /// The siblings' ranges, from the leaf up, and their builders.
    private let ranges: [Range<Int>]
    private var builders: [RootBuilder]
    private var next = 0

    /// A builder for the path of leaf `index` in a tree of `size` leaves; `nil` when there is
    /// no such leaf.
    package init?(index: Int, size: Int) {
      guard index >= 0, index < size else { return nil }
      var ranges: [Range<Int>] = []
      var leaves = 0..<size
      // Down from the root, keeping the half that holds the leaf; the other half is a sibling.
      while leaves.count > 1 {
        let split = leaves.lowerBound + largestPowerOfTwo(below: leaves.count)
        if index < split {
          ranges.append(split..<leaves.upperBound)
          leaves = leaves.lowerBound..<split
        } else {
          ranges.append(leaves.lowerBound..<split)
          leaves = split..<leaves.upperBound
        }
      }
      self.ranges = ranges.reversed()
      builders = Array(repeating: RootBuilder(), count: ranges.count)
    }

    /// Appends the next leaf's hash (leaves 0, 1, 2, ... in order).
    package mutating func append(_ leafHash: [UInt8]) {
      defer { next += 1 }
      // The ranges are few (the tree's height): a linear search is the cheap one.
      guard let sibling = ranges.firstIndex(where: { $0.contains(next) }) else { return }
      builders[sibling].append(leafHash)
    }

    /// The path, once every leaf was appended.
    package var path: [[UInt8]] { builders.map(\.root) }
  }

  /// The largest power of two strictly below `count` (which is at least 2).
  private static func largestPowerOfTwo(below count: Int) -> Int {
    1 << (Int.bitWidth - 1 - (count - 1).leadingZeroBitCount)
  }
}
