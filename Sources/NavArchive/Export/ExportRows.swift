import Foundation
import NavCore
@_spi(Internals) import NavHistory
import NavJSON

/// The rows of an export, written from what any engine reads: a session's summary as a
/// `sessions` row, a stored event's columns as an `events` row.
extension ExportEncoding {
  /// The events table's JSON Lines are whole wire-format events: they cannot leave payloads out.
  package static func checkPayloads(_ table: ExportTable, format: ExportFormat, filter: ExportFilter)
    throws(HistoryError)
  {
    if filter.omitsPayloads, table == .events, format == .jsonl { throw .payloadsInWireFormat }
  }

  /// A `sessions` row. Leaving out payloads leaves out the user id and the app's own context
  /// keys too (but for the fields `redaction` keeps): what could tell who the user is.
  /// `screenCount` is the session's visits as an export's replay counted them
  /// (`SessionRowReplay`); `nil` (an empty `screen_count`) where the row was read alone, as
  /// session listings read it.
  package static func sessionsRow(
    _ summary: SessionSummary, redacting redaction: PayloadRedaction, screenCount: Int? = nil
  ) -> [ExportValue] {
    let context = summary.context
    let omittingPayloads = redaction.omits
    func text(_ value: String?) -> ExportValue { .text(orNull: value) }
    let appContext: ExportValue =
      context?.app.isEmpty ?? true
      ? .null : .text(orNull: redaction.apply(JSONValue.object(context?.app ?? [:]))?.canonicalString)
    return [
      .text(summary.id.rawValue), .integer(Int64(summary.eventCount)),
      summary.firstAt.map(ExportValue.time) ?? .null,
      summary.lastAt.map(ExportValue.time) ?? .null, .integer(summary.durationMilliseconds),
      .integer(Int64(summary.depth)),
      summary.restoredFrom.map { .text($0.session.rawValue) } ?? .null,
      summary.restoredFrom.map { .integer(Int64($0.seq)) } ?? .null,
      .integer(Int64(summary.clockJumps)),
      text(context?.appVersion), text(context?.appBuild), text(context?.osName), text(context?.osVersion),
      text(context?.deviceModel), text(context?.locale), text(context?.timeZone),
      omittingPayloads ? .null : text(context?.userID), appContext,
      .integer(summary.foregroundMilliseconds), .text(summary.phase.rawValue),
      text(summary.launch?.rawValue),
      // A declined restore's reason is the app's own words, left out with the payloads.
      omittingPayloads && summary.launch.map(LaunchRecord.reasonIsTheApps) == true ? .null : text(summary.launchReason),
      .integer(Int64(summary.droppedRoutes)),
      text(localStart(summary)), .integer(summary.received), .text(summary.journey ?? summary.id.rawValue),
      screenCount.map { .integer(Int64($0)) } ?? .null,
    ]
  }

  /// When the session began by the clock its user saw: its first time in the time zone its
  /// context names, without an offset (`2026-11-21T10:30:00.000`), for the hour of the day and
  /// the day of the week. `nil` without a first time or a zone this machine knows.
  static func localStart(_ summary: SessionSummary) -> String? {
    guard let first = summary.firstAt, let name = summary.context?.timeZone, let zone = TimeZone(identifier: name)
    else { return nil }
    return first.wallClock(in: zone)?.text
  }

  /// Writes the events columns of the statement's row, or of a copy of it (with `operation` and `cause` empty when
  /// omitting payloads): the stored event's fields, and the
  /// operation's name, screen and path as the codec reads them from the stored operation
  /// (its headline: the rest of it is checked as JSON, and read in full by the JSON Lines
  /// export and by `verify`).
  package static func writeEventsRow(
    _ statement: some EventsRowColumns, session: SessionID, clockWentBack: Bool, redacting redaction: PayloadRedaction,
    into row: inout some ExportRowWriter
  ) throws(HistoryError) {
    let seq = statement.int64(EventColumn.seq.rawValue)
    let read = statement.withTextBytes(EventColumn.operation.rawValue) { bytes in
      Result { () throws(WireFormatError) in
        let headline = try OperationHeadline(storedOperation: bytes)
        return (headline, try headline.pathText())
      }
    }
    let (operation, path): (OperationHeadline, String)
    do {
      (operation, path) = try read.get()
    } catch {
      throw .unreadableHistory(session: session, seq: Int(seq), .unreadableEvent(error))
    }
    row.text(session.rawValue)
    row.integer(seq)
    row.time(Timestamp(millisecondsSince1970: statement.int64(EventColumn.at.rawValue)))
    statement.withTextBytes(EventColumn.origin.rawValue) { row.storedText($0) }
    row.text(operation.name)
    if let screen = operation.screenName { row.text(screen) } else { row.null() }
    row.text(path)
    if redaction.omits {
      row.null()  // operation
      if redaction.kept.isEmpty || statement.isNull(EventColumn.cause.rawValue) {
        row.null()
      } else if let kept = redaction.apply(
        stored: statement.withTextBytes(EventColumn.cause.rawValue) { String(decoding: $0, as: UTF8.self) })
      {
        row.text(kept)
      } else {
        row.null()
      }
    } else {
      statement.withTextBytes(EventColumn.operation.rawValue) { row.storedText($0) }
      if statement.isNull(EventColumn.cause.rawValue) {
        row.null()
      } else {
        statement.withTextBytes(EventColumn.cause.rawValue) { row.storedText($0) }
      }
    }
    statement.withBlobBytes(EventColumn.hash.rawValue) { row.hashHex($0) }
    row.boolean(clockWentBack)
    row.integer(statement.int64(EventColumn.received.rawValue))
  }
}
