import NavCore

/// An `events` row as read, decoded only when asked (verify hashes the stored text).
package struct StoredEventRow: Sendable {
  package var session: SessionID
  package var seq: Int
  package var at: Int64
  package var origin: String
  package var op: [UInt8]
  package var cause: [UInt8]?
  package var hash: [UInt8]

  /// The wire-format event, with its hash.
  /// A row as read.
  package init(session: SessionID, seq: Int, at: Int64, origin: String, op: [UInt8], cause: [UInt8]?, hash: [UInt8]) {
    self.session = session
    self.seq = seq
    self.at = at
    self.origin = origin
    self.op = op
    self.cause = cause
    self.hash = hash
  }

  package func decoded() throws(HistoryError) -> AnyEvent {
    guard let origin = EventOrigin(rawValue: origin) else {
      throw .unreadableHistory(session: session, seq: seq, .unknownOrigin(origin))
    }
    do {
      let operation = try WireFormat.decode(AnyOperation.self, from: op)
      let cause = try cause.map { bytes throws(WireFormatError) in try WireFormat.decode(JSONValue.self, from: bytes) }
      return AnyEvent(
        session: session, seq: seq, at: Timestamp(millisecondsSince1970: at), origin: origin, operation: operation,
        cause: cause, hash: HashChain.hex(hash))
    } catch {
      throw .unreadableHistory(session: session, seq: seq, .unreadableEvent(error))
    }
  }
}
