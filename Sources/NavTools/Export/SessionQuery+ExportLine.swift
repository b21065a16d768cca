@_spi(Internals) import NavArchive
import NavHistory

extension SessionQuery {
  /// A session's row of the sessions export, as one JSON Lines line: what `sessions --json`
  /// prints for the sessions a query keeps.
  package static func exportLine(_ session: SessionSummary, omittingPayloads: Bool = false) -> String {
    ExportEncoding.line(
      ExportRow(
        values: ExportEncoding.sessionsRow(session, redacting: PayloadRedaction(omits: omittingPayloads, kept: []))),
      table: .sessions,
      format: .jsonl)
  }
}
