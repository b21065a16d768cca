import Foundation
import Testing

/// The sqlite3 library through its shell, for tampering as someone with write access would.
struct SQLiteShell {
  let path: String

  func run(_ sql: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}

func sqlite(_ path: String) throws -> SQLiteShell { SQLiteShell(path: path) }
