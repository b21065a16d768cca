/// The SQL types of the exports' columns, so that a loader keeps text as text: a CSV reader that
/// guesses types reads an `app_build` of `412` as a number, an `app_version` of `2.10` as `2.1`,
/// and a user id's leading zeros away. `navstore export --schema` prints a table's
/// `CREATE TABLE`, which DuckDB, PostgreSQL and SQLite take as it is.
extension ExportTable {
  /// A column's SQL type: the names DuckDB and PostgreSQL share.
  package enum ColumnType: String, Sendable {
    case text = "VARCHAR"
    case integer = "BIGINT"
    /// An instant, written in UTC (`2026-11-21T09:00:03.200Z`).
    case time = "TIMESTAMPTZ"
    /// A wall-clock time without an offset (`local_start`).
    case localTime = "TIMESTAMP"
    case boolean = "BOOLEAN"
  }

  /// The columns that are not text, by name: a name means one thing in every table.
  private static let typed: [String: ColumnType] = [
    "seq": .integer, "received": .integer, "events": .integer, "duration_ms": .integer, "depth": .integer,
    "restored_from_seq": .integer, "clock_jumps": .integer, "foreground_ms": .integer, "dropped_routes": .integer,
    "tab": .integer, "occurred_at": .time, "first_at": .time, "last_at": .time, "entered_at": .time,
    "exited_at": .time, "local_start": .localTime, "clock_went_back": .boolean, "restored": .boolean,
    "resumed": .boolean, "screen_count": .integer,
  ]

  /// Each column's type, in the order of `columns`.
  package var columnTypes: [ColumnType] { columns.map { Self.typed[$0] ?? .text } }

  /// The table's `CREATE TABLE`, named as the table with `_` for `-` (`screen_views`), one
  /// column a line.
  package var createTable: String {
    let lines = zip(columns, columnTypes).map { "  \($0) \($1.rawValue)" }
    return "CREATE TABLE \(String(rawValue.map { $0 == "-" ? "_" : $0 })) (\n"
      + lines.joined(separator: ",\n") + "\n);\n"
  }
}
