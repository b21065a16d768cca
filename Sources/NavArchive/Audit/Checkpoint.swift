import Foundation
import NavCore
@_spi(Internals) import NavHistory

/// A store's state at one moment, as a checkpoint's signed text states it (the body of a C2SP
/// `tlog-checkpoint`):
///
///     navstore/<store id>
///     <number of sessions>
///     <root hash, base64>
///     events <number of events>
///     time <RFC 3339 time>
///
/// The first three lines are the transparency-log checkpoint every tool of that family reads
/// (origin, tree size, root hash); the last two are extension lines. The root is the Merkle tree
/// (`MerkleTree`) over one entry per session, in id order: the session, its last seq and its
/// chain value then (`CheckpointEntry`).
package struct Checkpoint: Sendable, Hashable {
  /// Names the store: `navstore/` and the store's identity, made once when it was created, so a
  /// checkpoint of one store is never taken for another's.
  package var origin: String
  /// The number of sessions, which is the size of the tree.
  package var sessionCount: Int
  /// The root of the tree (32 bytes).
  package var rootHash: [UInt8]
  /// The number of events in all sessions.
  package var eventCount: Int
  /// When the checkpoint was made.
  package var time: Timestamp

  /// The origin line of the store with `identity`.
  package static func origin(ofStore identity: String) -> String { "navstore/\(identity)" }

  /// The checkpoint's text, to be signed.
  package var text: String {
    "\(origin)\n\(sessionCount)\n\(Data(rootHash).base64EncodedString())\nevents \(eventCount)\ntime \(time.rfc3339)\n"
  }

  /// A checkpoint read back from its text.
  package init(text: String) throws(CheckpointError) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.count == 6, lines[5].isEmpty else {
      throw .malformed("a NavStore checkpoint has five lines: origin, sessions, root hash, events, time")
    }
    guard lines[0].hasPrefix("navstore/") else {
      throw .malformed("the origin line does not name a NavStore store: \"\(lines[0])\"")
    }
    guard let sessions = Self.decimal(lines[1]) else {
      throw .malformed("the session count is not a number: \"\(lines[1])\"")
    }
    guard let root = NoteKeyName.canonicalBase64(lines[2]), root.count == 32 else {
      throw .malformed("the root hash is not base64 of 32 bytes: \"\(lines[2])\"")
    }
    guard lines[3].hasPrefix("events "), let events = Self.decimal(lines[3].dropFirst(7)) else {
      throw .malformed("the events line reads 'events <count>': \"\(lines[3])\"")
    }
    guard lines[4].hasPrefix("time "), let time = try? Timestamp(rfc3339: String(lines[4].dropFirst(5))) else {
      throw .malformed("the time line reads 'time <RFC 3339 time>': \"\(lines[4])\"")
    }
    self.init(origin: String(lines[0]), sessionCount: sessions, rootHash: Array(root), eventCount: events, time: time)
  }

  /// A count as the checkpoint writes it: decimal digits, no sign, no leading zero.
  private static func decimal(_ text: Substring) -> Int? {
    guard let value = Int(text), value >= 0, String(value) == text else { return nil }
    return value
  }

  /// A checkpoint from its parts.
  package init(origin: String, sessionCount: Int, rootHash: [UInt8], eventCount: Int, time: Timestamp) {
    self.origin = origin
    self.sessionCount = sessionCount
    self.rootHash = rootHash
    self.eventCount = eventCount
    self.time = time
  }
}

/// One session as a checkpoint commits to it: a leaf of the checkpoint's Merkle tree.
package struct CheckpointEntry: Sendable, Hashable {
  /// The session.
  package var session: SessionID
  /// Its last seq when the checkpoint was made.
  package var seq: Int
  /// Its chain value after that event (32 bytes).
  package var hash: [UInt8]

  /// An entry from its parts.
  package init(session: SessionID, seq: Int, hash: [UInt8]) {
    self.session = session
    self.seq = seq
    self.hash = hash
  }

  /// The leaf's data: the RFC 8785 text of `{"hash": "<hex>", "seq": <seq>, "session": "<id>"}`,
  /// so that anyone can rebuild it with a JSON library and SHA-256.
  package var leafData: [UInt8] { json.canonicalBytes }

  /// `{"hash": "<hex>", "seq": <seq>, "session": "<id>"}`: the leaf's data, and the entry in a
  /// proof.
  var json: JSONValue {
    .object(["hash": .string(HashChain.hex(hash)), "seq": .number(Double(seq)), "session": .string(session.rawValue)])
  }

  /// The leaf's hash in the tree.
  package var leafHash: [UInt8] { MerkleTree.leafHash(leafData) }
}

extension Checkpoint {
  /// The checkpoint `note` states, once its signature by `key` holds.
  package static func verified(_ note: SignedNote, key: NoteVerifier) throws(HistoryError) -> Checkpoint {
    do throws(CheckpointError) {
      do {
        try note.verify(with: key)
      } catch {
        throw CheckpointError.signature(error)
      }
      return try Checkpoint(text: note.text)
    } catch {
      throw .checkpoint(error)
    }
  }
}
