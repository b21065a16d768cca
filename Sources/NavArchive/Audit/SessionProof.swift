import Foundation
import NavCore
@_spi(Internals) import NavHistory
import NavJSON

/// That one session is in a signed checkpoint, checkable without the store: the checkpoint's
/// note, the session's entry, its place in the tree and the Merkle path to the root. A support
/// engineer hands an auditor a session's history, this and the verifier key; the auditor checks
/// the signature, rebuilds the root from the entry and the path, and compares the entry's chain
/// value with the history's (`navstore verify --proof`).
///
/// As JSON (`json`), in RFC 8785 form:
/// `{"checkpoint": "<the note>", "entry": {"hash": "<hex>", "seq": N, "session": "<id>"},
/// "index": I, "path": ["<hex>", ...], "size": N}`.
package struct SessionProof: Sendable, Hashable {
  /// The signed checkpoint.
  package var note: SignedNote
  /// The session as the checkpoint committed to it.
  package var entry: CheckpointEntry
  /// Its leaf's place in the tree (0-based, sessions in id order).
  package var index: Int
  /// The number of leaves (sessions) in the tree.
  package var size: Int
  /// The sibling hashes from the leaf up to the root (RFC 6962's audit path).
  package var path: [[UInt8]]

  /// A proof from its parts.
  package init(note: SignedNote, entry: CheckpointEntry, index: Int, size: Int, path: [[UInt8]]) {
    self.note = note
    self.entry = entry
    self.index = index
    self.size = size
    self.path = path
  }

  /// The proof as JSON.
  package var json: String {
    JSONValue.object([
      "checkpoint": .string(note.serialized),
      "entry": entry.json,
      "index": .number(Double(index)),
      "path": .array(path.map { .string(HashChain.hex($0)) }),
      "size": .number(Double(size)),
    ]).canonicalString
  }

  /// Reads a proof from its JSON.
  package init(json text: String) throws(CheckpointError) {
    guard case .object(let object)? = try? JSONParser.parse(text) else { throw .malformed("a proof is a JSON object") }
    func field<T>(_ name: String, _ read: (JSONValue) -> T?) throws(CheckpointError) -> T {
      guard let value = object[name], let read = read(value) else {
        throw .malformed("the proof's \"\(name)\" is missing or not what it should be")
      }
      return read
    }
    let noteText: String = try field("checkpoint") { if case .string(let s) = $0 { s } else { nil } }
    do {
      note = try SignedNote(parsing: noteText)
    } catch {
      throw .malformed("the proof's checkpoint is not a signed note: \(error)")
    }
    guard case .object(let entry)? = object["entry"],
      case .string(let hash)? = entry["hash"], let hashBytes = Self.bytes(hex: hash), hashBytes.count == 32,
      case .number(let seq)? = entry["seq"], let seqValue = Int(exactly: seq), seqValue >= 1,
      case .string(let session)? = entry["session"], let sessionID = try? SessionID(session)
    else { throw .malformed("the proof's \"entry\" is not {\"hash\", \"seq\", \"session\"} of a session") }
    self.entry = CheckpointEntry(session: sessionID, seq: seqValue, hash: hashBytes)
    index = try field("index") { if case .number(let n) = $0 { Int(exactly: n) } else { nil } }
    size = try field("size") { if case .number(let n) = $0 { Int(exactly: n) } else { nil } }
    path = try field("path") { value -> [[UInt8]]? in
      guard case .array(let items) = value else { return nil }
      let hashes = items.compactMap { item -> [UInt8]? in
        guard case .string(let text) = item, let bytes = Self.bytes(hex: text), bytes.count == 32 else { return nil }
        return bytes
      }
      return hashes.count == items.count ? hashes : nil
    }
  }

  /// Checks the proof: the note's signature by `key`, and the path from the entry's leaf to the
  /// checkpoint's root. Returns the checkpoint.
  package func verify(with key: NoteVerifier) throws(CheckpointError) -> Checkpoint {
    do {
      try note.verify(with: key)
    } catch {
      throw .signature(error)
    }
    let checkpoint = try Checkpoint(text: note.text)
    guard size == checkpoint.sessionCount else {
      throw .proofFails("it is for a tree of \(size) sessions, the checkpoint has \(checkpoint.sessionCount)")
    }
    guard MerkleTree.verify(leafHash: entry.leafHash, index: index, size: size, proof: path, root: checkpoint.rootHash)
    else {
      throw .proofFails("the path from \(entry.session) at seq \(entry.seq) does not lead to the checkpoint's root")
    }
    return checkpoint
  }

  private static func bytes(hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for pair in stride(from: 0, to: digits.count, by: 2) {
      guard let high = nibble(digits[pair]), let low = nibble(digits[pair + 1]) else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func nibble(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
