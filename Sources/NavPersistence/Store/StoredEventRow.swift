import NavCore

/// An `events` row as read, decoded only when asked (verify reads the raw text for hashing).
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
      throw .unreadableHistory(session: session, seq: seq, reason: "unknown origin \"\(origin)\"")
    }
    do {
      let operation = try WireFormat.decode(AnyOperation.self, from: op)
      let cause = try cause.map { bytes throws(WireFormatError) in try WireFormat.decode(JSONValue.self, from: bytes) }
      return AnyEvent(
        session: session, seq: seq, at: Timestamp(millisecondsSince1970: at), origin: origin, operation: operation,
        cause: cause, hash: HashChain.hex(hash))
    } catch {
      throw .unreadableHistory(session: session, seq: seq, reason: error.description)
    }
  }
}

extension StoredEventRow {
  /// The row the statement is on (columns session_id, seq, at, origin, op, cause, hash), for
  /// `session`, already checked.
  init(_ statement: SQLiteStatement, session: SessionID) {
    self.session = session
    seq = statement.int(1)
    at = statement.int64(2)
    origin = statement.text(3)
    op = statement.textBytes(4)
    cause = statement.isNull(5) ? nil : statement.textBytes(5)
    hash = statement.blob(6)
  }
}
