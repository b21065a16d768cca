import Foundation
import NavCore
import NavHistory

extension StoreReader {
  /// Writes one session, with the sessions it continues, to a new JSON Lines file at
  /// `destination`: what a support ticket needs to see how the user got where they were.
  ///
  /// A session restored at launch names the session it continues (`restoredFrom`), which may
  /// itself continue another: the bundle holds the whole line, oldest first, each session's
  /// events whole and in order, in the wire format (`navstore import` reads it back, into any
  /// store, and the hash chains verify there). A session in the line that was forgotten or
  /// pruned ends it. Returns the sessions written, oldest first.
  ///
  /// The sessions and their events are read in this reader's one snapshot (through a writer's
  /// reader, that includes the write's own events, which the file keeps even if the write then
  /// rolls back). Never overwrites: an existing `destination` is refused (`.destinationExists`),
  /// as is a folder that does not exist (`.folderMissing`); a bundle cut short leaves nothing
  /// there.
  @discardableResult
  public func bundle(_ session: SessionID, to destination: String) throws(StoreError) -> [SessionID] {
    let line = try lineage(of: session)
    try NewFile(at: destination).writeContents { output throws(StoreError) in
      for member in line {
        try writeLines(of: member) { chunk throws(StoreError) in
          try StoreEngine.callingBack { try output.write(contentsOf: chunk) }
        }
      }
    }
    return line
  }

  /// Every event of `session`, in seq order, as the wire format's lines, handed to `write` in
  /// chunks of about 64 KiB, in one read transaction and a chunk's memory.
  private func writeLines(of session: SessionID, _ write: ([UInt8]) throws(StoreError) -> Void) throws(StoreError) {
    var chunk: [UInt8] = []
    try engine.forEachEvent(of: session, from: 1, to: try engine.eventCount(of: session)) { row throws(StoreError) in
      let event = try StoreError.ruling(row.decoded())
      do throws(WireFormatError) {
        chunk.append(contentsOf: try WireFormat.canonicalBytes(event))
      } catch {
        throw StoreError.unencodable(error)
      }
      chunk.append(0x0A)
      if chunk.count >= 1 << 16 {
        try write(chunk)
        chunk.removeAll(keepingCapacity: true)
      }
    }
    if !chunk.isEmpty { try write(chunk) }
  }

  /// `session` and the sessions it continues, oldest first (`SessionLineage`): a session
  /// forgotten or pruned ends the line; the first must be in the store.
  package func lineage(of session: SessionID) throws(StoreError) -> [SessionID] {
    var lineage = SessionLineage(of: session)
    while let next = lineage.next {
      do {
        lineage.found(restoredFrom: try summary(of: next).restoredFrom?.session)
      } catch {
        guard case .unknownSession = error else { throw error }
        try StoreError.ruling(lineage.missing())
      }
    }
    return lineage.sessions
  }
}

extension SessionStore {
  /// Writes one session, with the sessions it continues, to a new JSON Lines file, in one read
  /// (see `StoreReader.bundle(_:to:)`).
  @discardableResult
  public func bundle(_ session: SessionID, to destination: String) throws(StoreError) -> [SessionID] {
    try read { reader throws(StoreError) in try reader.bundle(session, to: destination) }
  }

  /// Writes one session, with the sessions it continues, to a new file, off the caller's thread.
  @available(
    *, deprecated,
    message: "call it through the store's door: try await store.read { try $0.bundle(session, to: path) }"
  )
  @discardableResult
  public func bundle(_ session: SessionID, to destination: String) async throws(StoreError) -> [SessionID] {
    try await read { reader throws(StoreError) in try reader.bundle(session, to: destination) }
  }
}
