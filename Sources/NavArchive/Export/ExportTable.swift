import NavCore
@_spi(Internals) import NavHistory

/// The tables `navstore export` writes, each a flat view that analytics tools load as it is.
@_spi(Internals) public enum ExportTable: String, CaseIterable, Sendable {
  /// Every event. JSON Lines is exactly the wire format (it imports back).
  case events
  /// One row per session: size, first and last time, span, current depth, the session it
  /// continues (empty unless it began by restoring one), what it ran on (its context), its time
  /// in the foreground, where it is in the app's lifecycle, what its launch did (the outcome,
  /// why, and how many routes the restore left out), and how many screens the user visited.
  case sessions
  /// One row per period a screen was the visible top of a session.
  case screenViews = "screen-views"
  /// One row per change of visible screen.
  case transitions

  /// The columns, in order: the CSV header, and the JSON Lines keys in the same order. Every
  /// name is a plain identifier that neither DuckDB nor SQLite reserves, so queries select
  /// them unquoted (`occurred_at`, not `at`).
  public var columns: [String] {
    switch self {
    case .events:
      [
        "session", "seq", "occurred_at", "origin", "op", "screen", "path", "operation", "cause", "hash",
        "clock_went_back", "received",
      ]
    case .sessions:
      [
        "session", "events", "first_at", "last_at", "duration_ms", "depth", "restored_from_session",
        "restored_from_seq", "clock_jumps", "app_version", "app_build", "os_name", "os_version", "device_model",
        "locale", "time_zone", "user_id", "app_context", "foreground_ms", "phase", "launch", "launch_reason",
        "dropped_routes", "local_start", "received", "journey_id", "screen_count",
      ]
    case .screenViews:
      [
        "session", "screen", "path", "entered_at", "exited_at", "duration_ms", "clock_went_back", "screen_payload",
        "restored", "seq", "ended_by", "resumed", "view_id", "visit_id", "previous_screen", "previous_path", "arrival",
        "direction", "origin", "tab", "tab_screen", "cause_action", "cause", "screen_params", "received",
        "journey_id", "presentation",
      ]
    case .transitions:
      [
        "session", "from_screen", "to_screen", "op", "occurred_at", "origin", "seq", "clock_went_back", "from_path",
        "to_path", "from_payload", "to_payload", "restored", "cause_action", "cause", "received",
      ]
    }
  }
}

/// The file formats of an export.
@_spi(Internals) public enum ExportFormat: String, CaseIterable, Sendable {
  /// RFC 4180 CSV with a header row.
  case csv
  /// One JSON object per line.
  case jsonl
  /// Segment calls, one JSON object per line: a `screen` call per visit of a screen, `track`
  /// calls for the app's lifecycle (made from `screen-views`).
  case segment
  /// OpenTelemetry log records, one OTLP/HTTP JSON request (`resourceLogs`) per line: a session's
  /// start and end, a navigation event per visit of a screen, the app's lifecycle (made from
  /// `screen-views`).
  case otlp

  /// Whether the format sends moments (`NavigationRecord`) rather than a table's rows: it is
  /// made from the screen views, and written once per moment.
  package var isEventShaped: Bool { self == .segment || self == .otlp }

  /// Whether an export of `table` can be written in this format: the event-shaped formats are
  /// made from the screen views, and the front ends refuse them with another table.
  package func writes(_ table: ExportTable) -> Bool { !isEventShaped || table == .screenViews }

  /// The table an export of `table` in this format is made from: the screen views for the
  /// event-shaped formats, whatever table was asked.
  package func source(of table: ExportTable) -> ExportTable { isEventShaped ? .screenViews : table }
}

/// Which rows an export keeps, and what of them.
@_spi(Internals) public struct ExportFilter: Sendable, Hashable {
  /// Only this session.
  public var session: SessionID?
  /// Only rows whose time is at or after this: an event's or a transition's `occurred_at`, a
  /// view's `entered_at`, a session's `last_at`.
  public var since: Timestamp?
  /// Only rows whose time is at or before this: an event's or a transition's `occurred_at`, a
  /// view's `entered_at`, a session's `first_at` (a session active at some time up to it).
  public var until: Timestamp?
  /// Only the rows of sessions of this app version, as their start's context gave it.
  public var appVersion: String?
  /// Only the rows of sessions on this device model (`iPhone15,2`), as their start's context
  /// gave it.
  public var deviceModel: String?
  /// Leave out what can hold personal data: the events' `operation` (screen payloads, whole
  /// states), every table's `cause` (the app's actions), the screens' values (`screen_payload`,
  /// `screen_params`, `from_payload`, `to_payload`) and the sessions' `user_id` and
  /// `app_context` are empty, but for the fields `keptPayloadFields` names; screen names,
  /// operation names, paths and times stay. The events table's JSON Lines are whole wire-format
  /// events, so they cannot omit payloads: that export is refused.
  public var omitsPayloads: Bool
  /// What `omitsPayloads` keeps of each value all the same: paths of object keys from the
  /// value's root (`["productDetail", "id"]`), an array's elements each followed by the rest
  /// (none: nothing kept).
  public var keptPayloadFields: [[String]]
  /// Only what the store received after this cursor: the rows an earlier export that answered
  /// this cursor did not hand out (`nil`: from the first).
  public var after: Int64?
  /// The cursor this export answers to, read from the store when it began
  /// (`exportCursor`): rows received after it are left to the next export, so that one resumed
  /// from it hands out each row once (`nil`: no bound, for callers that do not resume).
  public var through: Int64?
  /// Numbers from this one on were not given by the store that holds the rows (on PostgreSQL,
  /// rows restored from another database's dump keep that one's transaction ids, beyond any its
  /// own snapshot can see): such rows are always handed out, never cut as too new (`nil`: none).
  public var foreignFrom: Int64?

  /// Creates a filter.
  public init(
    session: SessionID? = nil, since: Timestamp? = nil, until: Timestamp? = nil, appVersion: String? = nil,
    deviceModel: String? = nil, omitsPayloads: Bool = false, keptPayloadFields: [[String]] = [], after: Int64? = nil,
    through: Int64? = nil
  ) {
    self.keptPayloadFields = keptPayloadFields
    self.session = session
    self.since = since
    self.until = until
    self.appVersion = appVersion
    self.deviceModel = deviceModel
    self.omitsPayloads = omitsPayloads
    self.after = after
    self.through = through
  }

  /// What the rows keep of the values that can hold personal data.
  package var redaction: PayloadRedaction { PayloadRedaction(omits: omitsPayloads, kept: keptPayloadFields) }

  /// Whether a row whose newest event the store received under `received` is in this export:
  /// after the cursor it resumes from, and not after the one it answers to.
  package func hands(received: Int64) -> Bool {
    received > (after ?? .min) && reaches(received: received)
  }

  /// Whether an event the store received under `received` is before the cursor this export
  /// answers to: a session's events past it are left, whole, to the next export.
  package func reaches(received: Int64) -> Bool { received <= (through ?? .max) || received >= (foreignFrom ?? .max) }

  /// Whether the sessions table keeps `summary`: the session named, if one is, active between
  /// `since` and `until`, of the app version and device asked for, and in the received window.
  /// Every engine's sessions export asks this.
  package func keeps(_ summary: SessionSummary) -> Bool {
    if let session, session != summary.id { return false }
    if let since, let last = summary.lastAt, last < since { return false }
    if let until, let first = summary.firstAt, first > until { return false }
    return keeps(summary.context) && hands(received: summary.received)
  }

  /// Whether a filter on what sessions ran on is set: an engine that reads events then asks
  /// `keeps(_:)` of each session's context before handing its events on.
  package var selectsByContext: Bool { appVersion != nil || deviceModel != nil }

  /// Whether the rows of a session whose start gave `context` are kept: the app version and the
  /// device asked for, by the rule session listings follow (`SessionQuery`).
  package func keeps(_ context: SessionContext?) -> Bool {
    var query = SessionQuery()
    query.appVersion = appVersion
    query.deviceModel = deviceModel
    return query.matches(context)
  }

  /// Whether a row at `time` (an event, a transition, a view's start) is within `since` and
  /// `until`.
  package func includes(_ time: Timestamp) -> Bool {
    (since.map { time >= $0 } ?? true) && (until.map { time <= $0 } ?? true)
  }

  /// Whether the events table keeps an event at `at` (milliseconds since 1970) that the store
  /// received under `received` (its session already chosen): within `since` and `until`, and
  /// in the received window. Every engine's events export asks this.
  package func keepsEvent(at: Int64, received: Int64) -> Bool {
    includes(Timestamp(millisecondsSince1970: at)) && hands(received: received)
  }

  /// This filter answering to `cursor`, the store's cursor now (its `through`); `nil` when the
  /// cursor it resumes `after` is ahead of the store's. Then the store's numbers went back (a
  /// store restored from a backup or a dump, a failover to a standby that had not replayed the
  /// last of them, or another store altogether): resuming would skip what the store numbers
  /// again, so the puller must pull everything again, from the start.
  package func answering(_ cursor: Int64) -> ExportFilter? {
    if let after, after > cursor { return nil }
    var bounded = self
    bounded.through = cursor
    return bounded
  }
}

/// One value of an exported row.
package enum ExportValue: Hashable, Sendable {
  /// Text: CSV-quoted when needed, a JSON string.
  case text(String)
  /// A whole number (seqs, counts, milliseconds).
  case integer(Int64)
  /// A time, written as RFC 3339 UTC with milliseconds in both formats.
  case time(Timestamp)
  /// `true` or `false` in CSV (which DuckDB reads as a BOOLEAN), a JSON boolean in JSON Lines.
  case boolean(Bool)
  /// No value: an empty CSV field, JSON `null`.
  case null

  /// `text`, or no value when there is none.
  package static func text(orNull text: String?) -> ExportValue { text.map(ExportValue.text) ?? .null }
}

/// One exported row: values in the table's column order, plus the event itself for the
/// events table's JSON Lines form (which is the wire format, not a flat object).
package struct ExportRow: Hashable, Sendable {
  /// The values, in column order.
  package var values: [ExportValue]
  /// The event, for `events` rows.
  package var event: AnyEvent?
  /// The moment an event-shaped format sends, for those formats (no `values`).
  package var navigation: NavigationRecord?

  /// A row of `values`, with its event for an `events` row.
  package init(values: [ExportValue], event: AnyEvent? = nil) {
    self.values = values
    self.event = event
  }

  /// The row of a moment an event-shaped format sends.
  package init(_ navigation: NavigationRecord) {
    self.values = []
    self.navigation = navigation
  }
}
