import CSQLite
import NavCore

/// The store's work on one connection: the writer's, while the store's writer lock is held, or
/// a reader's, taken from the store's reader pool.
///
/// The writer keeps the state after sessions' last events it has seen (their "heads", in a
/// bounded `HeadCache`), so an append does not rehydrate. A cached head is used only when the
/// session row still has the same seq and head hash, which holds it true across rollbacks and
/// other processes' writes; a head cached since the last commit of another connection (SQLite's
/// `data_version`) and not undone by a rollback stands for the row without reading it.
///
/// Not `Sendable`: it is used by one thread at a time, the writer's inside `WriterLock`, a
/// reader's between leaving and re-entering `ReaderPool`, which lend it to the work at hand
/// (`EngineLoan`) and own it otherwise.
package final class StoreEngine {
  /// A session's state after its last event, and the totals of its row then: what the writer
  /// caches so that an append does not rehydrate, or read the row. `transaction` is the write
  /// transaction in which this head was true (0: none): within it the writer holds the lock, so
  /// the head stands for the session's row without reading it.
  struct Head {
    var totals: SessionTotals
    var state: RunningState
    var transaction: UInt64
  }

  /// What an append needs of a session's row: the totals it sums up, which the next event's
  /// row is computed from (`SessionTotals.adding`).
  typealias SessionRow = SessionTotals

  /// A session's totals not yet written to its row (see `pendingRow`): the totals after the
  /// last event appended and the phase the row holds.
  struct PendingRow {
    let session: SessionID
    let totals: SessionTotals
    let phaseBefore: SessionPhase
    /// The number the transaction's events are received under (`receivedNumber`).
    let received: Int64
  }

  package let connection: SQLiteConnection
  let options: StoreOptions
  package let path: String
  var heads: HeadCache<SessionID, Head>
  /// The append statements, once prepared (see `statementsForAppending`).
  var appendStatements: AppendStatements?
  /// The row of the session the last prepared event was written to (see `appendPrepared`).
  var lastPreparedRow: (session: SessionID, row: SessionRow, transaction: UInt64)?
  /// The session totals the last appends computed and its row does not hold yet: an import or
  /// a batch writes a session's row once per run of its events, not once per event (which was
  /// half of SQLite's work in an import). Written when another session's event is appended,
  /// before any other statement is prepared or run on this connection (so nothing this
  /// connection reads sees a stale row), and before the transaction commits; dropped with it.
  var pendingRow: PendingRow?
  /// The number of the write transaction under way (0: none), which `Head.transaction` refers to.
  private(set) var transaction: UInt64 = 0
  private var transactionsBegun: UInt64 = 0
  /// The first write transaction of the current run in which no other connection committed
  /// anything (0: none): heads cached since then are still true without reading the session's
  /// row (see `trustedRow`).
  private var trustedSince: UInt64 = 0
  /// SQLite's `data_version` at the start of the last write transaction: it changes exactly
  /// when another connection (another process, another store on the file) commits.
  private var lastDataVersion: Int64?
  /// The write transaction in which the store was seen to have no tombstones (0: not seen):
  /// a new session then needs no lookup of its id among the forgotten ones.
  var noTombstonesIn: UInt64 = 0
  /// The received number taken in a write transaction (see `receivedNumber`).
  var receivedIn: (transaction: UInt64, number: Int64)?

  init(connection: SQLiteConnection, options: StoreOptions, path: String) {
    self.connection = connection
    self.options = options
    self.path = path
    heads = HeadCache(
      capacity: options.headCacheCapacity, weightLimit: options.headCacheWeightLimit, weight: { $0.state.memoryWeight })
  }

  /// SQLite work on this engine's connection, its failure classified for the store's file
  /// (a full disk, a lock held too long, a failing disk, or another SQLite error).
  package func sql<T>(_ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw StoreError.from(error, path: path)
    }
  }

  package func prepare(_ text: String) throws(StoreError) -> SQLiteStatement {
    if pendingRow != nil { try flushPendingRow() }
    return try sql { () throws(SQLiteError) in try connection.statement(text) }
  }

  package func run(_ text: String) throws(StoreError) {
    if pendingRow != nil { try flushPendingRow() }
    try sql { () throws(SQLiteError) in try connection.execute(text) }
  }

  package func step(_ statement: SQLiteStatement) throws(StoreError) -> Bool {
    try sql { () throws(SQLiteError) in try statement.step() }
  }

  package func bind(_ statement: SQLiteStatement, _ values: [SQLiteValue]) throws(StoreError) {
    try sql { () throws(SQLiteError) in try statement.bind(values) }
  }

  package func execute(_ statement: SQLiteStatement, _ values: [SQLiteValue]) throws(StoreError) {
    try sql { () throws(SQLiteError) in try statement.execute(values) }
  }

  /// Runs a closure the caller gave the store, wrapping what it throws as the caller's error.
  package static func callingBack<T>(_ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch {
      throw .caller(CallerError(error))
    }
  }

  // MARK: Transactions

  /// One immediate write transaction: the write lock is taken up front (so a conflict
  /// surfaces as `.busy` at `BEGIN`, not halfway through), committed when `body` returns and
  /// rolled back when it throws.
  func write<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    guard options.access == .readWrite else { throw StoreError.readOnly(path: path) }
    transactionsBegun &+= 1
    transaction = transactionsBegun
    pendingRow = nil
    defer {
      transaction = 0
      pendingRow = nil
    }
    do {
      return try connection.immediateTransaction(
        { () throws(StoreError) in
          try noteOtherWriters()
          let result = try body()
          try flushPendingRow()
          return result
        }, classify: { StoreError.from($0, path: path) })
    } catch {
      // Heads cached in a transaction rolled back may be false: trust none from before.
      trustedSince = 0
      throw error
    }
  }

  /// Reads whether another connection committed since this one's last write transaction; run
  /// inside the write transaction, where nobody else can commit until it ends.
  private func noteOtherWriters() throws(StoreError) {
    let statement = try prepare("PRAGMA data_version")
    defer { statement.reset() }
    let version = try step(statement) ? statement.int64(0) : nil
    if version == nil || version != lastDataVersion || trustedSince == 0 { trustedSince = transaction }
    lastDataVersion = version
  }

  /// A read transaction: every query in `body` sees the same snapshot of the file.
  func read<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try run("BEGIN")
    defer { try? connection.execute("COMMIT") }
    return try body()
  }

  // MARK: Trust

  /// The session's row as the store holds it, when its cached head says so without reading it:
  /// the head was cached in this transaction or in one since which no other connection has
  /// committed and none of this one's rolled back. Then a batch reads each session's row once,
  /// and an app appending one event per transaction none at all.
  func trustedRow(_ session: SessionID) -> SessionRow? {
    guard transaction != 0, trustedSince != 0, let head = heads.peek(session), head.transaction >= trustedSince else {
      return nil
    }
    return head.totals
  }
}
