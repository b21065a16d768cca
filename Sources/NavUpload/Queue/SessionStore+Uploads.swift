import NavCore
import NavPersistence

extension SessionStore {
  /// The sessions with events a collector has not acknowledged and that do not wait at a
  /// rejected line, oldest first (by their first event), at most `limit`: the uploader's queue.
  /// Sessions recorded before anything was uploaded are in it from their first event.
  package func uploadQueue(limit: Int) throws(StoreError) -> [UploadProgress] {
    try withReadTransaction { engine throws(StoreError) in
      let statement = try engine.prepare(
        """
        SELECT s.id, s.event_count, coalesce(u.acknowledged_seq, 0) FROM sessions s
          LEFT JOIN upload_progress u ON u.session_id = s.id
          WHERE s.event_count > coalesce(u.acknowledged_seq, 0) AND u.held_seq IS NULL
          ORDER BY s.first_at, s.id LIMIT ?
        """)
      defer { statement.reset() }
      try engine.bind(statement, [.integer(Int64(max(0, limit)))])
      var queue: [UploadProgress] = []
      while try engine.step(statement) {
        queue.append(
          UploadProgress(
            session: try statement.sessionID(0), eventCount: statement.int(1),
            acknowledgedSeq: statement.int(2)))
      }
      return queue
    }
  }

  /// One session's upload progress (an unknown session has 0 events and nothing acknowledged).
  package func uploadProgress(of session: SessionID) throws(StoreError) -> UploadProgress {
    try withReadTransaction { engine throws(StoreError) in
      let statement = try engine.prepare(
        """
        SELECT coalesce(s.event_count, 0), coalesce(u.acknowledged_seq, 0), u.held_seq, u.held_reason,
          u.held_message
          FROM (SELECT ? AS id) wanted LEFT JOIN sessions s ON s.id = wanted.id
          LEFT JOIN upload_progress u ON u.session_id = wanted.id
        """)
      defer { statement.reset() }
      try engine.bind(statement, [.text(session.rawValue)])
      guard try engine.step(statement) else {
        return UploadProgress(session: session, eventCount: 0, acknowledgedSeq: 0)
      }
      let hold =
        statement.isNull(2)
        ? nil
        : UploadHold(
          session: session, seq: statement.int(2), reason: RejectionReason(naming: statement.text(3)),
          message: statement.text(4))
      return UploadProgress(
        session: session, eventCount: statement.int(0), acknowledgedSeq: statement.int(1), hold: hold)
    }
  }

  /// Notes that the collector holds `session` through `seq` (a 200's head for it). The
  /// acknowledged seq only moves forward, and never past the events the store holds: an answer
  /// that arrives late, or twice, changes nothing.
  package func acknowledgeUpload(of session: SessionID, through seq: Int, at time: Timestamp = Timestamp.now)
    throws(StoreError)
  {
    try withWriteTransaction { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare(
          """
          INSERT INTO upload_progress (session_id, acknowledged_seq, updated_at)
            SELECT id, min(?2, event_count), ?3 FROM sessions WHERE id = ?1
          ON CONFLICT (session_id) DO UPDATE SET
            acknowledged_seq = max(acknowledged_seq, excluded.acknowledged_seq), updated_at = excluded.updated_at,
            held_seq = CASE WHEN held_seq > max(acknowledged_seq, excluded.acknowledged_seq) THEN held_seq END,
            held_reason = CASE WHEN held_seq > max(acknowledged_seq, excluded.acknowledged_seq) THEN held_reason END,
            held_message = CASE WHEN held_seq > max(acknowledged_seq, excluded.acknowledged_seq) THEN held_message END
          """),
        [.text(session.rawValue), .integer(Int64(max(0, seq))), .integer(time.millisecondsSince1970)])
    }
  }

  /// Holds the hold's session at the line the collector rejected: the uploader passes it by,
  /// and `uploadProgress(of:)` and `heldUploads()` say why, until `releaseUpload(of:)`.
  package func holdUpload(_ hold: UploadHold, at time: Timestamp = Timestamp.now) throws(StoreError) {
    try withWriteTransaction { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare(
          """
          INSERT INTO upload_progress (session_id, acknowledged_seq, held_seq, held_reason, held_message, updated_at)
            VALUES (?1, 0, ?2, ?3, ?4, ?5)
          ON CONFLICT (session_id) DO UPDATE SET held_seq = max(excluded.held_seq, acknowledged_seq + 1),
            held_reason = excluded.held_reason, held_message = excluded.held_message, updated_at = excluded.updated_at
          """),
        [
          .text(hold.session.rawValue), .integer(Int64(max(1, hold.seq))), .text(hold.reason.rawValue),
          .text(hold.message),
          .integer(time.millisecondsSince1970),
        ])
    }
  }

  /// Lets a held session go back in the queue (after the collector's side was put right).
  package func releaseUpload(of session: SessionID, at time: Timestamp = Timestamp.now) throws(StoreError) {
    try withWriteTransaction { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare(
          """
          UPDATE upload_progress SET held_seq = NULL, held_reason = NULL, held_message = NULL, updated_at = ?
            WHERE session_id = ?
          """),
        [.integer(time.millisecondsSince1970), .text(session.rawValue)])
    }
  }

  /// The sessions that wait at a line the collector rejected, oldest hold first.
  package func heldUploads() throws(StoreError) -> [UploadHold] {
    try withReadTransaction { engine throws(StoreError) in
      let statement = try engine.prepare(
        """
        SELECT session_id, held_seq, held_reason, held_message FROM upload_progress
          WHERE held_seq IS NOT NULL ORDER BY updated_at, session_id
        """)
      defer { statement.reset() }
      var holds: [UploadHold] = []
      while try engine.step(statement) {
        holds.append(
          UploadHold(
            session: try statement.sessionID(0), seq: statement.int(1),
            reason: RejectionReason(naming: statement.text(2)), message: statement.text(3)))
      }
      return holds
    }
  }

  /// What is still to upload, across the store.
  package func pendingUploads() throws(StoreError) -> PendingUploads {
    try withReadTransaction { engine throws(StoreError) in
      let statement = try engine.prepare(
        """
        SELECT count(*), coalesce(sum(s.event_count - coalesce(u.acknowledged_seq, 0)), 0),
          count(u.held_seq)
          FROM sessions s LEFT JOIN upload_progress u ON u.session_id = s.id
          WHERE s.event_count > coalesce(u.acknowledged_seq, 0)
        """)
      defer { statement.reset() }
      guard try engine.step(statement) else { return PendingUploads(sessions: 0, events: 0, heldSessions: 0) }
      return PendingUploads(sessions: statement.int(0), events: statement.int(1), heldSessions: statement.int(2))
    }
  }

  /// What was sent on the UTC day `time` falls in (nothing yet: zeros).
  package func uploadSpending(on time: Timestamp = Timestamp.now) throws(StoreError) -> UploadSpending {
    let day = UploadSpending.day(of: time)
    return try withReadTransaction { engine throws(StoreError) in
      let statement = try engine.prepare("SELECT bytes, expensive_bytes FROM upload_spending WHERE day = ?")
      defer { statement.reset() }
      try engine.bind(statement, [.integer(Int64(day))])
      guard try engine.step(statement) else { return UploadSpending(day: day, bytes: 0, expensiveBytes: 0) }
      return UploadSpending(day: day, bytes: statement.int(0), expensiveBytes: statement.int(1))
    }
  }

  /// Adds `bytes` sent at `time` (on an expensive network when `expensive`) to that day's
  /// spending, and forgets days more than 30 before it: the store keeps 31 days. The day's
  /// totals after it. For the uploader (NavUpload) alone: an app reads, never writes, spending.
  @discardableResult
  package func recordUploadSpending(bytes: Int, expensive: Bool, at time: Timestamp = Timestamp.now)
    throws(StoreError) -> UploadSpending
  {
    let day = UploadSpending.day(of: time)
    let sent = Int64(max(0, bytes))
    try withWriteTransaction { engine throws(StoreError) in
      try engine.execute(
        try engine.prepare(
          """
          INSERT INTO upload_spending (day, bytes, expensive_bytes) VALUES (?1, ?2, ?3)
          ON CONFLICT (day) DO UPDATE SET bytes = bytes + excluded.bytes,
            expensive_bytes = expensive_bytes + excluded.expensive_bytes
          """),
        [.integer(Int64(day)), .integer(sent), .integer(expensive ? sent : 0)])
      try engine.execute(
        try engine.prepare("DELETE FROM upload_spending WHERE day < ?"), [.integer(Int64(day - 30))])
    }
    return try uploadSpending(on: time)
  }
}

extension SessionStore {
  /// The uploader's queue (see the synchronous `uploadQueue(limit:)`), off the caller's thread.
  package func uploadQueue(limit: Int) async throws(StoreError) -> [UploadProgress] {
    try await offloaded { () throws(StoreError) in try self.uploadQueue(limit: limit) }
  }

  /// One session's upload progress (see `uploadProgress(of:)`), off the caller's thread.
  package func uploadProgress(of session: SessionID) async throws(StoreError) -> UploadProgress {
    try await offloaded { () throws(StoreError) in try self.uploadProgress(of: session) }
  }

  /// Notes an acknowledgement (see `acknowledgeUpload(of:through:at:)`), off the caller's thread.
  package func acknowledgeUpload(of session: SessionID, through seq: Int, at time: Timestamp = Timestamp.now)
    async throws(StoreError)
  {
    try await offloaded { () throws(StoreError) in try self.acknowledgeUpload(of: session, through: seq, at: time) }
  }

  /// Holds a session at a rejected line (see `holdUpload(_:at:)`), off the caller's thread.
  package func holdUpload(_ hold: UploadHold, at time: Timestamp = Timestamp.now) async throws(StoreError) {
    try await offloaded { () throws(StoreError) in try self.holdUpload(hold, at: time) }
  }

  /// The held sessions (see `heldUploads()`), off the caller's thread.
  package func heldUploads() async throws(StoreError) -> [UploadHold] {
    try await offloaded { () throws(StoreError) in try self.heldUploads() }
  }

  /// Lets a held session go (see `releaseUpload(of:at:)`), off the caller's thread.
  package func releaseUpload(of session: SessionID, at time: Timestamp = Timestamp.now) async throws(StoreError) {
    try await offloaded { () throws(StoreError) in try self.releaseUpload(of: session, at: time) }
  }

  /// What is still to upload (see `pendingUploads()`), off the caller's thread.
  package func pendingUploads() async throws(StoreError) -> PendingUploads {
    try await offloaded { () throws(StoreError) in try self.pendingUploads() }
  }

  /// What was sent on a day (see `uploadSpending(on:)`), off the caller's thread.
  package func uploadSpending(on time: Timestamp = Timestamp.now) async throws(StoreError) -> UploadSpending {
    try await offloaded { () throws(StoreError) in try self.uploadSpending(on: time) }
  }

  /// Adds to a day's spending (see `recordUploadSpending(bytes:expensive:at:)`), off the
  /// caller's thread.
  @discardableResult
  package func recordUploadSpending(bytes: Int, expensive: Bool, at time: Timestamp = Timestamp.now)
    async throws(StoreError) -> UploadSpending
  {
    try await offloaded { () throws(StoreError) in
      try self.recordUploadSpending(bytes: bytes, expensive: expensive, at: time)
    }
  }
}
