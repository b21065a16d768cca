#if Collector
import PostgresNIO

/// The statements every upload runs, prepared once per connection: the database parses and
/// plans them once, not for each upload (their planning was about a tenth of the database's
/// work in an upload of 1,000 lines).
enum IngestStatements {
  /// Takes the advisory locks of `keys` for the transaction, in the order given, and has the
  /// transaction's later statements run their generic plans: the database would otherwise plan
  /// each again for its arrays (it sees their lengths), and their plan is the same whatever
  /// the lengths (each row found by its key).
  struct Lock: PostgresPreparedStatement {
    static let name = "navstore_ingest_lock"
    static let sql = """
      SELECT set_config('plan_cache_mode', 'force_generic_plan', true), pg_advisory_xact_lock(k)
        FROM unnest($1::bigint[]) AS k
      """
    typealias Row = Void

    let keys: [Int64]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 1)
      bindings.append(keys)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
  }

  /// The sessions that arrived before the one they restore (their journey is its id), moved to
  /// its journey (`SessionJourney.moves`) and received again in this transaction, which their
  /// rows keep as the journey's move (`StoredJourney`).
  struct MoveJourneys: PostgresPreparedStatement {
    static let name = "navstore_ingest_move_journeys"
    static let sql = """
      UPDATE sessions SET journey = m.to_journey,
          received = greatest(sessions.received, pg_current_xact_id()::text::bigint),
          journey_received = pg_current_xact_id()::text::bigint
        FROM unnest($2::text[], $3::text[]) AS m (from_journey, to_journey)
        WHERE sessions.app = $1 AND sessions.journey = m.from_journey AND sessions.id <> m.from_journey
      """
    typealias Row = Void

    let app: String
    let from: [String]
    let to: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 3)
      bindings.append(app)
      bindings.append(from)
      bindings.append(to)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
  }

  /// Each named session's row, or its tombstone when it has no events.
  struct HeldRows: PostgresPreparedStatement {
    static let name = "navstore_ingest_held_rows"
    static let sql = """
      SELECT n.id, \(PostgresSessionRow.selectList(of: "s")), t.forgotten_at
        FROM unnest($2::text[]) AS n (id)
        LEFT JOIN sessions s ON s.app = $1 AND s.id = n.id
        LEFT JOIN tombstones t ON t.app = $1 AND t.session_id = n.id AND coalesce(s.event_count, 0) = 0
      """
    typealias Row = PostgresSessionRow.HeldColumns

    let app: String
    let sessions: [String]

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 2)
      bindings.append(app)
      bindings.append(sessions)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
  }

  /// Everything an upload writes, in one statement: its events, the new sessions' whole rows,
  /// the snapshots and the stored sessions' new totals (an empty array inserts or updates
  /// nothing). The events go as arrays, not with `COPY ... FROM STDIN`: PostgresNIO stops the
  /// process (a precondition) when a connection dies between a COPY's start and its data, and a
  /// connection killed by a failover or an operator must cost one upload a retry, never the
  /// collector.
  struct Rows: PostgresPreparedStatement {
    static let name = "navstore_ingest_rows"
    static let sql = """
      WITH new_events AS (
        INSERT INTO events (app, session_id, month, seq, at, origin, op, cause, hash, received)
          SELECT $1, s, m, q, a, o, op, nullif(c, ''), h, pg_current_xact_id()::text::bigint
            FROM unnest($30::text[], $31::integer[], $32::bigint[], $33::bigint[], $34::text[], $35::text[],
              $36::text[], $37::bytea[]) AS e (s, m, q, a, o, op, c, h)
      ), new_sessions AS (
        INSERT INTO sessions (app, id, month, event_count, first_at, last_at, head_hash, depth, restored_from_session,
            restored_from_seq, clock_jumps, duration_ms, foreground_ms, context, phase, launch, launch_reason,
            dropped_routes, received, journey)
          SELECT $1, s, m, n, f, l, h, p, nullif(r, ''), nullif(q, 0), j, d, g, nullif(c, ''), ph, nullif(lo, ''),
              nullif(lr, ''), ld, pg_current_xact_id()::text::bigint, jo
            FROM unnest($2::text[], $3::integer[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bytea[], $8::integer[],
              $9::text[], $10::bigint[], $11::bigint[], $12::bigint[], $13::bigint[], $14::text[], $15::text[],
              $38::text[], $39::text[], $40::integer[], $41::text[])
              AS x (s, m, n, f, l, h, p, r, q, j, d, g, c, ph, lo, lr, ld, jo)
      ), new_snapshots AS (
        INSERT INTO snapshots (app, session_id, month, seq, state)
          SELECT $1, s, m, q, t
            FROM unnest($16::text[], $17::integer[], $18::bigint[], $19::text[]) AS n (s, m, q, t)
      )
      UPDATE sessions SET event_count = u.n, first_at = u.f, last_at = u.l, clock_jumps = u.j, duration_ms = u.d,
          foreground_ms = u.g, head_hash = u.h, depth = u.p, phase = u.ph,
          received = greatest(sessions.received, pg_current_xact_id()::text::bigint)
        FROM unnest($20::text[], $21::bigint[], $22::bigint[], $23::bigint[], $24::bigint[], $25::bigint[],
          $26::bigint[], $27::bytea[], $28::integer[], $29::text[]) AS u (id, n, f, l, j, d, g, h, p, ph)
        WHERE sessions.app = $1 AND sessions.id = u.id
      """
    typealias Row = Void

    let app: String
    let events: EventColumns
    let new: SessionColumnsBatch
    let snapshots: SnapshotColumns
    let stored: SessionColumnsBatch

    func makeBindings() throws -> PostgresBindings {
      var bindings = PostgresBindings(capacity: 41)
      bindings.append(app)
      bindings.append(new.ids)
      bindings.append(new.months)
      bindings.append(new.counts)
      bindings.append(new.firsts)
      bindings.append(new.lasts)
      bindings.append(new.hashes)
      bindings.append(new.depths)
      bindings.append(new.links)
      bindings.append(new.linkSeqs)
      bindings.append(new.jumps)
      bindings.append(new.durations)
      bindings.append(new.foregrounds)
      bindings.append(new.contexts)
      bindings.append(new.phases)
      bindings.append(snapshots.sessions)
      bindings.append(snapshots.months)
      bindings.append(snapshots.seqs)
      bindings.append(snapshots.states)
      bindings.append(stored.ids)
      bindings.append(stored.counts)
      bindings.append(stored.firsts)
      bindings.append(stored.lasts)
      bindings.append(stored.jumps)
      bindings.append(stored.durations)
      bindings.append(stored.foregrounds)
      bindings.append(stored.hashes)
      bindings.append(stored.depths)
      bindings.append(stored.phases)
      bindings.append(events.sessions)
      bindings.append(events.months)
      bindings.append(events.seqs)
      bindings.append(events.ats)
      bindings.append(events.origins)
      bindings.append(events.operations)
      bindings.append(events.causes)
      bindings.append(events.hashes)
      bindings.append(new.launches)
      bindings.append(new.launchReasons)
      bindings.append(new.droppedRoutes)
      bindings.append(new.journeys)
      return bindings
    }

    func decodeRow(_ row: PostgresRow) throws {}
  }

  /// The events an upload writes, one array per column; a cause is its canonical JSON, `""` for
  /// none (JSON is never empty).
  struct EventColumns: Sendable {
    var sessions: [String] = []
    var months: [Int32] = []
    var seqs: [Int64] = []
    var ats: [Int64] = []
    var origins: [String] = []
    var operations: [UTF8TextElement] = []
    var causes: [String] = []
    var hashes: [ByteaElement] = []

    var count: Int { seqs.count }
  }

  /// The snapshots an upload writes, one array per column.
  struct SnapshotColumns: Sendable {
    var sessions: [String] = []
    var months: [Int32] = []
    var seqs: [Int64] = []
    var states: [String] = []
  }
}

extension PostgresConnection {
  /// Runs a prepared statement and reads its rows to the end (a row stream left unread holds the
  /// connection), each given to `body`.
  func run<Statement: PostgresPreparedStatement>(
    _ statement: Statement, logger: Logger, _ body: (Statement.Row) throws -> Void = { _ in }
  ) async throws {
    try await readToTheEnd(try await execute(statement, logger: logger), body)
  }
}
#endif
