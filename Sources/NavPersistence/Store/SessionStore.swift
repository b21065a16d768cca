import CSQLite
import Foundation
import NavCore
import Synchronization

/// The durable home of recorded sessions: one SQLite file, an append-only event log per session,
/// periodic snapshots, and a hash chain over every session's history.
///
/// Safe to share between threads and tasks: one connection per store, guarded by a mutex. Several
/// stores (processes) may open the same file; SQLite's locking and each event's seq decide who
/// wins a race. Every write is one immediate transaction: a refused operation writes nothing.
public final class SessionStore: Sendable {
  /// The file's path.
  public let path: String
  /// How the store was opened.
  public let options: StoreOptions
  private let engine: Mutex<StoreEngine>

  /// Opens (and for writers, creates and migrates) the store at `path`.
  public init(path: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
    self.path = path
    self.options = options
    let connection = try StoreOpening.open(path: path, options: options)
    engine = Mutex(StoreEngine(connection: connection, options: options, path: path))
  }

  /// The schema version of the store.
  public func schemaVersion() throws(StoreError) -> Int {
    try run { engine in Int(try engine.connection.integer("PRAGMA user_version") ?? 0) }
  }

  /// The newest schema version this build of NavStore knows.
  public static var latestSchemaVersion: Int { Migrator.latestVersion }

  // MARK: Writing

  /// Appends one event. `event.seq`, when given, must be the session's next seq (or name an
  /// identical stored event, which is then skipped); `event.hash`, when given, must match.
  @discardableResult
  public func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    try run { engine in try engine.write { try engine.append(event) } }
  }

  /// Appends events in one transaction: all of them, or, when one is refused, none. Returns
  /// the events as stored and which of them were already stored (see `BatchOutcome`).
  @discardableResult
  public func append(contentsOf events: [AnyEvent]) throws(StoreError) -> BatchOutcome {
    try run { engine in
      try engine.write {
        var outcome = BatchOutcome()
        outcome.events.reserveCapacity(events.count)
        for (index, event) in events.enumerated() {
          do {
            let appended = try engine.append(event)
            outcome.events.append(appended.event)
            if appended.wasAlreadyStored { outcome.alreadyStoredPositions.append(index) }
          } catch let error as StoreError {
            throw StoreError.lineFailed(line: index + 1, StoreErrorBox(error))
          }
        }
        return outcome
      }
    }
  }

  /// Imports JSON Lines events (the wire format's Event, one per line; blank lines are skipped).
  ///
  /// All lines are one transaction, or one per `batchSize` lines. The first bad line stops the
  /// import with `.invalidLine` or `.lineFailed` naming it, and rolls back its transaction:
  /// batches committed before it stay. `progress` is called after each line with the line
  /// count and the bytes read.
  @discardableResult
  public func importJSONLines(
    from reader: LineReader, batchSize: Int? = nil, progress: ((_ lines: Int, _ bytes: Int) -> Void)? = nil
  ) throws(StoreError) -> ImportSummary {
    try run { engine in
      var summary = ImportSummary()
      var touched = Set<SessionID>()
      var finished = false
      while !finished {
        try engine.write {
          var inBatch = 0
          while batchSize.map({ inBatch < $0 }) ?? true {
            let next: ArraySlice<UInt8>?
            do throws(LineReaderError) {
              next = try reader.next()
            } catch {
              throw StoreError.unreadableInput(error)
            }
            guard let line = next else {
              finished = true
              return
            }
            progress?(reader.lineNumber, reader.bytesRead)
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let event: AnyEvent
            do throws(WireFormatError) {
              event = try WireFormat.decode(AnyEvent.self, from: line)
            } catch {
              throw StoreError.invalidLine(line: reader.lineNumber, error)
            }
            do {
              let outcome = try engine.append(event)
              if outcome.wasAlreadyStored { summary.alreadyStored += 1 } else { summary.appended += 1 }
              touched.insert(event.session)
            } catch let error as StoreError {
              throw StoreError.lineFailed(line: reader.lineNumber, StoreErrorBox(error))
            }
            inBatch += 1
          }
        }
        summary.transactions += 1
      }
      summary.sessions = touched.count
      return summary
    }
  }

  /// Records an app action from the states before and after it: appends the operations `diff`
  /// derives (or `start` for a new session), all in one transaction, all with the same time,
  /// origin and cause. `before` must be the session's current state (`nil` for a new session).
  @discardableResult
  public func record(
    session: SessionID, from before: AnyCoordinator?, to after: AnyCoordinator, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil
  ) throws(StoreError) -> [AppendOutcome] {
    try run { engine in
      try engine.write {
        let head = try engine.head(of: session)
        guard head?.state == before else { throw StoreError.stateMismatch(session: session, seq: head?.seq ?? 0) }
        let operations = try Self.operations(recording: session, from: before, to: after)
        return try operations.map { operation in
          try engine.append(AnyEvent(session: session, at: time, origin: origin, operation: operation, cause: cause))
        }
      }
    }
  }

  /// The operations that record a change: `diff`'s, or `start` (with `link`) for a new session.
  /// A change `diff` cannot express (the top coordinator changing kind) is `.cannotRecord`.
  static func operations(
    recording session: SessionID, from before: AnyCoordinator?, to after: AnyCoordinator, link: SessionLink? = nil
  ) throws(StoreError) -> [AnyOperation] {
    guard let before else { return [.start(after, restoredFrom: link)] }
    do {
      return try AnyCoordinator.diff(from: before, to: after)
    } catch {
      throw .cannotRecord(session: session, reason: "\(error)")
    }
  }

  /// Records an app action with typed screens (see the untyped `record`).
  @discardableResult
  public func record<Screen: NavigationScreen>(
    session: SessionID, from before: Coordinator<Screen>?, to after: Coordinator<Screen>, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil
  ) throws(StoreError) -> [AppendOutcome] {
    try record(
      session: session, from: try before.map(Self.untyped), to: try Self.untyped(after), at: time, origin: origin,
      cause: cause)
  }

  /// A typed state as untyped JSON screens, through the screens' `Codable` conformance.
  static func untyped<Screen>(_ state: Coordinator<Screen>) throws(StoreError) -> AnyCoordinator {
    if let same = state as? AnyCoordinator { return same }
    do {
      return try WireFormat.decode(AnyCoordinator.self, from: try WireFormat.tree(of: state))
    } catch {
      throw StoreError.unencodable(error)
    }
  }

  // MARK: Reading

  /// The session's state after event `seq` (default: its last event), and that seq.
  public func state(of session: SessionID, at seq: Int? = nil) throws(StoreError) -> (state: AnyCoordinator, seq: Int) {
    try run { engine in
      try engine.read {
        let count = try engine.eventCount(of: session)
        let target = seq ?? count
        guard (1...count).contains(target) else {
          throw StoreError.seqBeyondHistory(session: session, seq: target, last: count)
        }
        return (try engine.rehydrate(session, at: target), target)
      }
    }
  }

  /// The session's state after event `seq` (default: its last), decoded into the app's own
  /// `Screen` type, for showing at launch.
  ///
  /// A session saved by an older version of the app may hold screens the current type no
  /// longer decodes. Under `.dropUndecodable` (the default) each such screen's route goes, with
  /// what stands on it, and the result lists it; under `.strict` the call throws instead. When
  /// not even the top root decodes, the call throws `.cannotRestore` with
  /// `RestoreError.nothingRestorable`: start from the app's launch state.
  public func restore<Screen: NavigationScreen>(
    _ session: SessionID, as type: Screen.Type, at seq: Int? = nil, policy: RestorePolicy = .dropUndecodable
  ) throws(StoreError) -> RestoredSession<Screen> {
    let (stored, at) = try state(of: session, at: seq)
    do {
      let restored = try stored.restoring(as: type, policy: policy)
      return RestoredSession(session: session, seq: at, state: restored.state, dropped: restored.dropped)
    } catch {
      throw .cannotRestore(session: session, seq: at, error)
    }
  }

  /// The session's events from `from` to `to` (inclusive), with their hashes.
  public func history(of session: SessionID, from: Int = 1, to: Int? = nil) throws(StoreError) -> [AnyEvent] {
    try run { engine in
      try engine.read {
        _ = try engine.eventCount(of: session)
        var events: [AnyEvent] = []
        try engine.forEachEvent(of: session, from: from, to: to ?? Int.max) { events.append(try $0.decoded()) }
        return events
      }
    }
  }

  /// Every session, ordered by id.
  public func sessions() throws(StoreError) -> [SessionSummary] {
    try run { engine in try engine.read { try engine.sessionSummaries() } }
  }

  /// The session whose last event is the most recent (ties go to the greatest id), or `nil` for
  /// an empty store: the one an app restores at launch. One index lookup, whatever the number of
  /// sessions.
  public func latestSession() throws(StoreError) -> SessionSummary? {
    try run { engine in try engine.read { try engine.latestSessionSummary() } }
  }

  /// Calls `body` with each event from `from` to `to` and the session's state after it, for
  /// histories that show where each event led. `body` runs while the store is locked: it must not
  /// call this store (that would deadlock, which the lock reports by trapping).
  public func replayHistory(
    of session: SessionID, from: Int = 1, to: Int? = nil, _ body: (AnyEvent, AnyCoordinator) throws -> Void
  ) throws(StoreError) {
    try run { engine in
      try engine.read {
        let count = try engine.eventCount(of: session)
        let first = max(1, from)
        guard first <= count else { throw StoreError.seqBeyondHistory(session: session, seq: first, last: count) }
        var state: AnyCoordinator? = first > 1 ? try engine.rehydrate(session, at: min(first - 1, count)) : nil
        try engine.forEachEvent(of: session, from: first, to: to ?? count) { row in
          let event = try row.decoded()
          do {
            state = try event.operation.apply(to: state)
          } catch {
            throw StoreError.unreadableHistory(session: session, seq: row.seq, reason: "the event no longer applies: \(error)")
          }
          if let state { try body(event, state) }
        }
      }
    }
  }

  /// Exports a table, row by row, to `emit`, in one read transaction and constant memory.
  /// Returns how many rows were emitted. `emit` runs while the store is locked: it must not call
  /// this store.
  @discardableResult
  /// `format` says which form the rows will be written in (the events table's JSON Lines rows
  /// carry the whole event).
  public func export(
    _ table: ExportTable, format: ExportFormat = .csv, filter: ExportFilter = ExportFilter(), _ emit: (ExportRow) throws -> Void
  ) throws(StoreError) -> Int {
    try run { engine in
      try engine.read {
        if let session = filter.session { _ = try engine.eventCount(of: session) }
        var rows = 0
        try engine.export(table, format: format, filter: filter) { row in
          try emit(row)
          rows += 1
        }
        return rows
      }
    }
  }

  /// Exports a table as text, the way `navstore export` writes it: the CSV header first, then
  /// one line per row, handed to `write` in chunks of about 64 KiB, in one read transaction and
  /// constant memory. `progress` is called with the row count after each row. Returns the row
  /// count. Both closures run while the store is locked: they must not call this store.
  ///
  /// The bytes are those of `export` followed by `ExportEncoding`; the events table as CSV
  /// takes a faster way to them.
  @discardableResult
  public func exportEncoded(
    _ table: ExportTable, format: ExportFormat, filter: ExportFilter = ExportFilter(), progress: ((Int) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws(StoreError) -> Int {
    try run { engine in
      try engine.read {
        if let session = filter.session { _ = try engine.eventCount(of: session) }
        return try engine.exportEncoded(table, format: format, filter: filter, progress: progress, write: write)
      }
    }
  }

  /// Checks sessions (all of them by default): seqs without gaps, the hash chain, every snapshot
  /// against the replayed state, and the session's counters.
  public func verify(_ sessions: [SessionID]? = nil) throws(StoreError) -> [VerificationResult] {
    try run { engine in
      try engine.read {
        let known = try engine.allSessionIDs()
        if let unknown = sessions?.first(where: { !known.contains($0) }) { throw StoreError.unknownSession(unknown) }
        return try (sessions ?? known).map { id in try engine.verify(id) }
      }
    }
  }

  /// Runs `body` on the engine under the store's lock, with every error classified as a `StoreError`.
  func run<T>(_ body: (StoreEngine) throws -> T) throws(StoreError) -> T {
    do {
      return try engine.withLock { engine in try body(engine) }
    } catch {
      throw StoreEngine.classify(error)
    }
  }
}
