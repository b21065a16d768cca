import Foundation
import NavCore
import NavPersistence
import NavTestSupport

/// Every table of a database, row by row, in a fixed order: what "byte-for-byte the same data"
/// is compared with.
func dump(_ path: String) throws -> String {
  let connection = try SQLiteConnection(path: path, mode: .readOnly)
  var lines: [String] = []
  let tables = try connection.statement("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
  var names: [String] = []
  while try tables.step() {
    lines.append(tables.text(1))
    if tables.text(1).hasPrefix("CREATE TABLE") { names.append(tables.text(0)) }
  }
  for name in names {
    // Ordered by every column, so that the dump does not depend on how rows were stored.
    let columns = try connection.statement("SELECT * FROM \"\(name)\" LIMIT 0").columnCount
    let rows = try connection.statement(
      "SELECT * FROM \"\(name)\" ORDER BY " + (1...max(1, columns)).map(String.init).joined(separator: ", "))
    while try rows.step() {
      lines.append(name + ": " + (0..<rows.columnCount).map { "\(rows.value($0))" }.joined(separator: " | "))
    }
  }
  return lines.joined(separator: "\n")
}

/// An event at a fixed time, `offset` milliseconds after a base instant.
func event(_ session: String, _ operation: AnyOperation, offset: Int64 = 0, seq: Int? = nil, origin: EventOrigin = .app)
  -> AnyEvent
{
  AnyEvent(
    session: sessionID(session), seq: seq, at: Timestamp(millisecondsSince1970: 1_795_000_000_000 + offset),
    origin: origin,
    operation: operation)
}

/// A random session: a start and the operations accepted after it, with the state after each.
struct RandomSession {
  var events: [AnyEvent]
  var states: [AnyCoordinator]

  static func make(id: String, using rng: inout some RandomNumberGenerator, length: Int) -> RandomSession {
    var state = RandomTrees.coordinator(depth: 3, using: &rng)
    var events = [event(id, .start(state))]
    var states = [state]
    while events.count < length {
      let operation = RandomTrees.operation(for: state, using: &rng)
      guard let next = try? state.applying(operation) else { continue }
      state = next
      events.append(event(id, operation, offset: Int64(events.count)))
      states.append(state)
    }
    return RandomSession(events: events, states: states)
  }
}
