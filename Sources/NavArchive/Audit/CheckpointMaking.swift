import NavCore
@_spi(Internals) import NavHistory

/// A checkpoint being made, fed each session's row in the order its leaves are kept: the one
/// procedure both engines make a checkpoint with, so that they check a row against its events,
/// count the events and sign the root by the same rule.
package struct CheckpointMaking {
  private var tree = MerkleTree.RootBuilder()
  private var events = 0

  package init() {}

  /// How many leaves are in: the position the next one takes.
  package var count: Int { tree.count }

  /// Takes a session's leaf from its row: `seq` and `rowHash` are the row's counters,
  /// `eventHash` the chain value stored with the event at `seq`. A checkpoint signs what the
  /// events say, so a row whose counters disagree with them is refused
  /// (`.rowDisagreesWithEvents`), as is a total of events past `Int`.
  package mutating func append(session: SessionID, seq: Int, rowHash: [UInt8]?, eventHash: [UInt8]?)
    throws(HistoryError)
    -> CheckpointEntry
  {
    guard let rowHash, let eventHash, rowHash == eventHash else {
      throw .unreadableHistory(session: session, seq: seq, .rowDisagreesWithEvents)
    }
    let (total, overflow) = events.addingReportingOverflow(seq)
    guard !overflow else { throw .unreadableHistory(session: session, seq: seq, .impossibleEventTotal) }
    events = total
    let entry = CheckpointEntry(session: session, seq: seq, hash: rowHash)
    tree.append(entry.leafHash)
    return entry
  }

  /// The checkpoint of the leaves taken, for the store whose checkpoints carry `origin`, signed
  /// by `signer`.
  package func signed(origin: String, at time: Timestamp, by signer: NoteSigner) throws(HistoryError) -> (
    checkpoint: Checkpoint, note: SignedNote
  ) {
    let checkpoint = Checkpoint(
      origin: origin, sessionCount: tree.count, rootHash: tree.root, eventCount: events, time: time)
    do throws(NoteError) {
      return (checkpoint, try SignedNote(text: checkpoint.text, signedBy: signer))
    } catch {
      throw .checkpoint(.signature(error))
    }
  }
}
