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
  /// The number of the write that stored it, in the order the store received its events (0: not
  /// stored yet, or read where the number is not wanted).
  package var received: Int64

  /// A row as read.
  package init(
    session: SessionID, seq: Int, at: Int64, origin: String, op: [UInt8], cause: [UInt8]?, hash: [UInt8],
    received: Int64 = 0
  ) {
    self.session = session
    self.seq = seq
    self.at = at
    self.origin = origin
    self.op = op
    self.cause = cause
    self.hash = hash
    self.received = received
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
