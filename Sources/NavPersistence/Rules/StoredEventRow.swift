import NavCore

/// An `events` row as read, decoded only when asked (verify hashes the stored text).
struct StoredEventRow {
  var session: SessionID
  var seq: Int
  var at: Int64
  var origin: String
  var op: [UInt8]
  var cause: [UInt8]?
  var hash: [UInt8]

  /// The wire-format event, with its hash.
  func decoded() throws(StoreError) -> AnyEvent {
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
