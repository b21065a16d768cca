import NavPersistence
import Testing

/// Binding in place: the bytes are stored as they were bound, and a run that leaves a
/// parameter unbound (which would still point at a previous run's bytes) is refused unstepped.
@Suite struct BorrowedExecutionTests {
  @Test func boundBytesAreStoredAndAnUnboundParameterIsRefused() throws {
    let connection = try SQLiteConnection(path: ":memory:", mode: .readWrite(create: true))
    try connection.execute("CREATE TABLE t (a INTEGER, b TEXT, c BLOB)")
    let insert = try connection.statement("INSERT INTO t VALUES (?, ?, ?)")
    var text = "first"
    let blob: [UInt8] = [1, 2, 3]
    let failure = text.withUTF8 { text in
      blob.withUnsafeBytes { blob in
        var run = BorrowedExecution(insert)
        run.bind(7, at: 1)
        run.bind(text: text, at: 2)
        run.bind(blob: blob, at: 3)
        return run.run()
      }
    }
    #expect(failure == nil)
    var partial = BorrowedExecution(insert)
    partial.bind(8, at: 1)
    let refused = partial.run()
    #expect(refused?.code == 21)  // SQLITE_MISUSE
    #expect(refused?.message == "a parameter was left unbound")
    let rows = try connection.statement("SELECT a, b, hex(c) FROM t")
    var seen: [String] = []
    while try rows.step() { seen.append("\(rows.int(0)) \(rows.text(1)) \(rows.text(2))") }
    #expect(seen == ["7 first 010203"])
  }
}
