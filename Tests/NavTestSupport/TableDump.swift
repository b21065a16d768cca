import NavPersistence

/// Every table of a database, row by row, in a fixed order: what "byte-for-byte the same data"
/// is compared with, without the order in which the store received its rows. (Not `dump`: the standard library's `dump(_:)` takes any value and returns
/// it, so a file missing this helper would compile and compare the paths.)
public func tableDump(_ path: String) throws -> String {
  let connection = try SQLiteConnection(path: path, mode: .readOnly)
  var lines: [String] = []
  let tables = try connection.statement("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
  var names: [String] = []
  while try tables.step() {
    lines.append(tables.text(1))
    if tables.text(1).hasPrefix("CREATE TABLE") { names.append(tables.text(0)) }
  }
  // The order of arrival (the receipt numbers, and the write that moved a journey) says which
  // write stored a row, not what it holds: two stores written in different batches hold the
  // same history.
  for name in names where name != "receipt_counter" {
    var kept: [String] = []
    let info = try connection.statement("SELECT name FROM pragma_table_info(?)")
    try info.bind([.text(name)])
    while try info.step() {
      let column = info.text(0)
      if column != "received" && column != "journey_received" { kept.append("\"\(column)\"") }
    }
    // Ordered by every column, so that the dump does not depend on how rows were stored.
    let rows = try connection.statement(
      "SELECT \(kept.joined(separator: ", ")) FROM \"\(name)\" ORDER BY "
        + (1...max(1, kept.count)).map(String.init).joined(separator: ", "))
    while try rows.step() {
      lines.append(name + ": " + (0..<rows.columnCount).map { "\(rows.value($0))" }.joined(separator: " | "))
    }
  }
  return lines.joined(separator: "\n")
}
