import NavCore

/// The columns of an `events` row, in the order every event query selects them.
package enum EventColumn: Int32, ResultColumns {
  case sessionID, seq, at, origin, operation, cause, hash, received

  package static let selectList = columnList

  package var expression: String {
    switch self {
    case .sessionID: "session_id"
    case .seq: "seq"
    case .at: "at"
    case .origin: "origin"
    case .operation: "op"
    case .cause: "cause"
    case .hash: "hash"
    case .received: "received"
    }
  }
}
