@_spi(Internals) import NavCore
@_spi(Internals) import NavHistory

extension SessionStore {
  /// Appends one event, in a write transaction of its own (see `StoreWriter.append(_:)`).
  @discardableResult
  public func append(_ event: AnyEvent) throws(StoreError) -> AppendOutcome {
    try write { writer throws(StoreError) in try writer.append(event) }
  }

  /// Appends one event at the time `clock` gives once the write transaction has begun, in place
  /// of `event.at`: what `navstore append` without `--at` does. No other append can commit
  /// between that reading and the write, so appends that race (threads, processes) are stored
  /// with times in the order of their seqs; an event's time read before the write lock could
  /// come out earlier than the event stored before it.
  @discardableResult
  package func append(_ event: AnyEvent, timedBy clock: () -> Timestamp) throws(StoreError) -> AppendOutcome {
    try withWriteTransaction { engine throws(StoreError) in
      var timed = event
      timed.at = clock()
      return try engine.append(timed)
    }
  }

  /// Appends one event of an app's own screen type, in a write transaction of its own (see
  /// `StoreWriter.append(_:)`). Its screens are encoded before the write lock is taken.
  @discardableResult
  public func append<AppScreen: NavigationScreen>(_ event: NavigationEvent<AppScreen>) throws(StoreError)
    -> AppendOutcome
  {
    try append(try StoreWriter.untyped(event))
  }

  /// Appends events in one transaction: all of them, or, when one is refused, none. Returns
  /// the events as stored and which of them were already stored (see `BatchOutcome`).
  ///
  /// A batch of 256 events or more is prepared on a second thread (applied, encoded, hashed)
  /// while this one stores the events before them; a shorter one would gain less than the
  /// hand-over costs.
  @discardableResult
  package func append(contentsOf events: [AnyEvent]) throws(StoreError) -> BatchOutcome {
    try withWriteTransaction { engine throws(StoreError) in
      var outcome = BatchOutcome()
      outcome.events.reserveCapacity(events.count)
      func store(_ entry: AppendPipeline.Entry) throws(StoreError) {
        guard let event = entry.event else { return }  // only lines can hold none
        if let appended = try engine.append(entry, event) {
          outcome.events.append(appended.event)
          if appended.wasAlreadyStored { outcome.alreadyStoredPositions.append(entry.position - 1) }
        } else if let prepared = entry.prepared {
          outcome.events.append(prepared.event)
        }
      }
      guard events.count >= AppendPipeline.chunkSize else {
        for (index, event) in events.enumerated() {
          try store(AppendPipeline.Entry(event: event, prepared: nil, position: index + 1))
        }
        return outcome
      }
      let pipeline = appendPipeline()
      defer { pipeline.stop() }
      for (index, event) in events.enumerated() {
        try pipeline.submit((.event(event), index + 1), take: store)
      }
      try pipeline.drain(take: store)
      return outcome
    }
  }

  /// A pipeline preparing events for this store's writer, reading heads it has not seen on a
  /// reader of the store's file (an in-memory store has none: such events go to the writer).
  package func appendPipeline() -> OrderedPipeline<AppendPipeline.Submission, AppendPipeline.Entry> {
    let readers = readers
    return AppendPipeline.start(snapshotInterval: options.snapshotInterval, headCapacity: options.headCacheCapacity) {
      session in
      guard let readers else { return nil }
      let head = try? readers.withEngine { engine throws(StoreError) in
        try engine.read { () throws(StoreError) in try engine.head(of: session) }
      }
      return head.flatMap { $0 }.map {
        EventPreparer.Expected(seq: $0.totals.count, hash: $0.totals.headHash, state: $0.state, phase: $0.totals.phase)
      }
    }
  }

  /// Records an app action from the states before and after it, in one write transaction (see
  /// `StoreWriter.record(session:from:to:at:origin:cause:context:)`).
  @discardableResult
  public func record(
    session: SessionID, from before: AnyCoordinator?, to after: AnyCoordinator, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) throws(StoreError) -> [AppendOutcome] {
    try write { writer throws(StoreError) in
      try writer.record(
        session: session, from: before, to: after, at: time, origin: origin, cause: cause, context: context)
    }
  }

  /// Records an app action with typed screens, in one write transaction. The states are
  /// encoded before the write lock is taken.
  @discardableResult
  public func record<AppScreen: NavigationScreen>(
    session: SessionID, from before: Coordinator<AppScreen>?, to after: Coordinator<AppScreen>, at time: Timestamp,
    origin: EventOrigin = .app, cause: JSONValue? = nil, context: SessionContext? = nil
  ) throws(StoreError) -> [AppendOutcome] {
    try record(
      session: session, from: try before.map(Self.untyped), to: try Self.untyped(after), at: time, origin: origin,
      cause: cause, context: context)
  }

  /// The operations that record a change: `diff`'s, or `start` (with `link`, `context` and
  /// `launch`) for a new session. A change `diff` cannot express (the top coordinator changing
  /// kind) is `.cannotRecord`.
  static func operations(
    recording session: SessionID, from before: AnyCoordinator?, to after: AnyCoordinator, link: SessionLink? = nil,
    context: SessionContext? = nil, launch: LaunchRecord? = nil
  ) throws(StoreError) -> [AnyOperation] {
    guard let before else { return [.start(after, restoredFrom: link, context: context, launch: launch)] }
    do {
      return try AnyCoordinator.diff(from: before, to: after)
    } catch {
      throw .cannotRecord(session: session, error)
    }
  }

  /// A typed state as untyped JSON screens, through the screens' `Codable` conformance.
  static func untyped<AppScreen>(_ state: Coordinator<AppScreen>) throws(StoreError) -> AnyCoordinator {
    do {
      return try state.untyped()
    } catch {
      throw StoreError.unencodable(error)
    }
  }

  /// A typed state as untyped JSON screens, each screen that does not encode kept as a marker
  /// and listed in `unstorable` (see `UnstorableScreen`): what the recorder writes.
  static func untyped<AppScreen>(
    _ state: Coordinator<AppScreen>, markingUnstorable unstorable: inout [UnstorableScreen.Found]
  )
    throws(StoreError) -> AnyCoordinator
  {
    do {
      return try state.untyped(markingUnstorable: &unstorable)
    } catch {
      throw StoreError.unencodable(error)
    }
  }
}
