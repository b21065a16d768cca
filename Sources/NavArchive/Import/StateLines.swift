@_spi(Internals) import NavCore
import NavHistory
import NavJSON

/// Lines of whole states, turned into the events that lead from each to the next: what
/// `navstore import --states` reads, for tools that know the app's navigation after each change
/// but not the operations between.
///
/// A **state line** is a wire-format event whose `op` is replaced by `state` (the whole
/// Coordinator, as a `start` holds it), with `context` beside it when the session gives one:
/// `{"session":"s-1","at":"2026-11-21T09:30:00.000Z","state":{...},"cause":{"tapped":{}}}`. A
/// session's first state line starts it; each later one becomes the operations
/// `Coordinator.diff` gives from the session's state before (one change: every event at the
/// line's time, origin and cause); one equal to the state before writes nothing. Any other line
/// (a `background`, an event already in the wire format) goes through as it is, and moves the
/// session's state on when it applies.
@_spi(Internals) public struct StateLines<Base: JSONLinesSource>: JSONLinesSource {
  /// The most sessions whose state is held at once: a file of more sessions open at once is
  /// refused (sorted by session, it holds one at a time).
  public static var maximumOpenSessions: Int { 100_000 }

  private var base: Base
  private var pending: [[UInt8]] = []
  private var next = 0
  private var states: [SessionID: AnyCoordinator] = [:]

  /// The lines of `base`, states turned into events.
  public init(_ base: Base) { self.base = base }

  /// The line of the input the last event came from: an import's errors point at it.
  public var lineNumber: Int { base.lineNumber }
  public var bytesRead: Int { base.bytesRead }

  public mutating func nextLine() throws(LineReaderError) -> ArraySlice<UInt8>? {
    while next >= pending.count {
      guard let line = try base.nextLine() else { return nil }
      let produced = try events(of: line)
      pending = produced
      next = 0
    }
    let line = pending[next][...]
    next += 1
    return line
  }

  /// The event lines of one input line.
  private mutating func events(of line: ArraySlice<UInt8>) throws(LineReaderError) -> [[UInt8]] {
    guard case .object(var members)? = try? JSONParser.parse(line), let state = members["state"] else {
      follow(line)
      return [Array(line)]
    }
    // The line as the `start` it would be: the wire format's own rules check every field.
    var start: [String: JSONValue] = ["op": .string("start"), "state": state]
    start["context"] = members["context"]
    (members["state"], members["context"]) = (nil, nil)
    guard members["op"] == nil else { throw refusal("a state line has no 'op'") }
    members["op"] = .object(start)
    let event: AnyEvent
    do {
      event = try WireFormat.decode(AnyEvent.self, from: JSONValue.object(members).canonicalBytes)
    } catch {
      throw refusal("not a state line: \(error)")
    }
    guard case .start(let new, _, _, _) = event.operation.kind else { throw refusal("not a state line") }
    guard let old = states[event.session] else {
      guard states.count < Self.maximumOpenSessions else {
        throw refusal(
          "more than \(Self.maximumOpenSessions) sessions are open at once; sort the file by session")
      }
      states[event.session] = new
      return [Array(try canonical(event).utf8)]
    }
    let operations: [AnyOperation]
    do {
      operations = try AnyCoordinator.diff(from: old, to: new)
    } catch {
      throw refusal("\(error)")
    }
    states[event.session] = new
    var lines: [[UInt8]] = []
    for operation in operations {
      let step = AnyEvent(
        session: event.session, at: event.at, origin: event.origin, operation: operation, cause: event.cause)
      lines.append(Array(try canonical(step).utf8))
    }
    return lines
  }

  /// Moves the state of the session of a line that goes through on, when it is an event that
  /// applies (what does not is the import's to refuse); an `end` closes the session.
  private mutating func follow(_ line: ArraySlice<UInt8>) {
    guard let event = try? WireFormat.decode(AnyEvent.self, from: line), states[event.session] != nil else {
      return
    }
    var state: AnyCoordinator? = states[event.session]
    if case .end = event.operation.kind {
      states[event.session] = nil
    } else if (try? event.operation.apply(toSession: &state)) != nil, let state {
      states[event.session] = state
    }
  }

  private func canonical(_ event: AnyEvent) throws(LineReaderError) -> String {
    do {
      return try WireFormat.canonicalString(event)
    } catch {
      throw refusal("\(error)")
    }
  }

  private func refusal(_ reason: String) -> LineReaderError {
    .unconvertible(line: base.lineNumber, reason: reason)
  }
}
