import CSQLite
import Foundation

/// A failure reported by SQLite, with everything needed to understand it.
///
/// Carries SQLite's extended result code and message and the statement that failed, so a
/// report ("database is locked" during which insert?) can be acted on without a debugger.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// SQLite's extended result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_PRIMARYKEY`, ...).
  public var extendedCode: Int32
  /// SQLite's message.
  public var message: String
  /// The SQL being run, when there was one.
  package var sql: String?

  /// The primary result code (the extended code's low byte).
  package var code: Int32 { extendedCode & 0xFF }

  /// Creates an error.
  package init(extendedCode: Int32, message: String, sql: String? = nil) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
  }

  /// Whether another connection holds a lock this one needed.
  package var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
  /// Whether a constraint (primary key, check, foreign key) refused a write.
  package var isConstraint: Bool { code == SQLITE_CONSTRAINT }
  /// Whether the disk or the database's page limit is full.
  package var isFull: Bool { code == SQLITE_FULL }
  /// Whether the operating system failed a read, write or sync of the file.
  package var isIOError: Bool { code == SQLITE_IOERR }

  /// What SQLite was doing when an I/O error struck, in words ("writing", "syncing to disk");
  /// a generic phrase for the rarer codes.
  package var ioActivity: String {
    guard isIOError, let code = SQLiteIOErrorCode(extendedCode: extendedCode) else { return "reading or writing" }
    return code.activity
  }

  public var description: String {
    let name = String(cString: sqlite3_errstr(extendedCode))
    let base = "SQLite error \(extendedCode) (\(name)): \(message)"
    guard let sql else { return base }
    let compact = sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
      separator: " ")
    return base + " [in: \(compact.prefix(160))]"
  }
}

extension SQLiteError {
  /// The error SQLite records on `handle` for the last call.
  static func last(on handle: OpaquePointer?, code: Int32, sql: String? = nil) -> SQLiteError {
    let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
    let message =
      handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
    return SQLiteError(extendedCode: extended, message: message, sql: sql)
  }
}
