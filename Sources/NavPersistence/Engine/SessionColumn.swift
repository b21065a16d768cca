import NavCore

/// The columns of a `sessions` row, in the order every session query selects them.
enum SessionColumn: Int32, ResultColumns {
  case id, eventCount, headHash, firstAt, lastAt, depth, restoredFromSession, restoredFromSeq, durationMilliseconds
  case clockJumps, context, phase, foregroundMilliseconds, launch, launchReason, droppedRoutes, received, journey

  static let selectList = columnList

  var expression: String {
    switch self {
    case .id: "id"
    case .eventCount: "event_count"
    case .headHash: "head_hash"
    case .firstAt: "first_at"
    case .lastAt: "last_at"
    case .depth: "depth"
    case .restoredFromSession: "restored_from_session"
    case .restoredFromSeq: "restored_from_seq"
    case .durationMilliseconds: "duration_ms"
    case .clockJumps: "clock_jumps"
    case .context: "context"
    case .phase: "phase"
    case .foregroundMilliseconds: "foreground_ms"
    case .launch: "launch"
    case .launchReason: "launch_reason"
    case .droppedRoutes: "dropped_routes"
    case .received: "received"
    case .journey: "journey"
    }
  }
}

/// The columns an append reads of a session's row: its totals (`SessionTotals`).
enum SessionTotalsColumn: Int32, ResultColumns {
  case eventCount, headHash, phase, firstAt, lastAt, clockJumps, durationMilliseconds, foregroundMilliseconds, depth

  static let selectList = columnList

  var expression: String {
    switch self {
    case .eventCount: SessionColumn.eventCount.expression
    case .headHash: SessionColumn.headHash.expression
    case .phase: SessionColumn.phase.expression
    case .firstAt: SessionColumn.firstAt.expression
    case .lastAt: SessionColumn.lastAt.expression
    case .clockJumps: SessionColumn.clockJumps.expression
    case .durationMilliseconds: SessionColumn.durationMilliseconds.expression
    case .foregroundMilliseconds: SessionColumn.foregroundMilliseconds.expression
    case .depth: SessionColumn.depth.expression
    }
  }
}

extension SessionRecord {
  /// The row the statement is on, selected with `SessionColumn.selectList`.
  init(_ statement: SQLiteStatement) {
    self.init(
      id: statement.text(SessionColumn.id),
      eventCount: statement.int(SessionColumn.eventCount),
      headHash: statement.isNull(SessionColumn.headHash) ? nil : statement.blob(SessionColumn.headHash),
      firstAt: statement.optionalInt64(SessionColumn.firstAt).map(Timestamp.init(millisecondsSince1970:)),
      lastAt: statement.optionalInt64(SessionColumn.lastAt).map(Timestamp.init(millisecondsSince1970:)),
      depth: statement.int(SessionColumn.depth),
      restoredFromSession: statement.isNull(SessionColumn.restoredFromSession)
        ? nil : statement.text(SessionColumn.restoredFromSession),
      restoredFromSeq: statement.optionalInt64(SessionColumn.restoredFromSeq),
      durationMilliseconds: statement.int64(SessionColumn.durationMilliseconds),
      clockJumps: statement.int(SessionColumn.clockJumps),
      context: statement.isNull(SessionColumn.context) ? nil : statement.text(SessionColumn.context),
      phase: statement.text(SessionColumn.phase),
      foregroundMilliseconds: statement.int64(SessionColumn.foregroundMilliseconds),
      launch: statement.isNull(SessionColumn.launch) ? nil : statement.text(SessionColumn.launch),
      launchReason: statement.isNull(SessionColumn.launchReason) ? nil : statement.text(SessionColumn.launchReason),
      droppedRoutes: statement.int(SessionColumn.droppedRoutes), received: statement.int64(SessionColumn.received),
      journey: statement.isNull(SessionColumn.journey) ? nil : statement.text(SessionColumn.journey))
  }
}
