import Foundation
import NavCore
import NavPersistence

/// A session as it was recorded, with the sessions it was restored from: what a regression test
/// replays through the app's own navigation logic (`SessionReplay`).
///
/// Read from a fixture (the JSON Lines file `navstore fixture` or `navstore bundle` writes, oldest
/// session first, the ticket's session last) or from a store file. Nothing of the app's types is
/// needed to read it: screens and causes stay JSON until the replay decodes them as today's
/// `Screen` and `Action`, so a fixture recorded by an older version of the app still loads.
public struct RecordedSession: Sendable {
  /// The session replayed.
  public let id: SessionID
  /// Its events, in seq order, from its `start`.
  let events: [AnyEvent]
  /// The sessions it continues (its `restoredFrom`, theirs, ...) that the recording holds, by id.
  let sources: [SessionID: [AnyEvent]]

  /// The recorded session in the JSON Lines file at `path`: `session`, or the file's last session
  /// when `nil` (a fixture ends with the ticket's session). Lines may carry hashes or not; a
  /// fixture leaves them out when it leaves out personal fields, since a test replays what
  /// happened and does not audit it.
  ///
  /// ```swift
  /// let recorded = try RecordedSession(contentsOf: "Tests/AppTests/Fixtures/ticket-4121.jsonl")
  /// ```
  public init(contentsOf path: String, session: SessionID? = nil) throws(ReplayError) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .unreadableRecording(path: path, reason: "\(error.localizedDescription)")
    }
    try self.init(lines: [UInt8](data), named: path, session: session)
  }

  /// The recorded session in the fixture file `name`, in the `Fixtures` folder beside the test
  /// file that calls this (`#filePath`): where `navstore fixture` tells to put it, found the same
  /// way whatever folder the tests run in.
  ///
  /// ```swift
  /// let recorded = try RecordedSession(fixture: "ticket-4121.jsonl")
  /// ```
  public init(fixture name: String, session: SessionID? = nil, besides filePath: String = #filePath)
    throws(ReplayError)
  {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    try self.init(contentsOf: folder.appendingPathComponent(name).path, session: session)
  }

  /// The recorded session in `store`, with the sessions it continues that the store still holds.
  public init(store: SessionStore, session: SessionID) throws(ReplayError) {
    do throws(StoreError) {
      let (events, sources) = try store.read { reader throws(StoreError) in
        // The line a bundle writes, oldest first: the session last.
        let line = try reader.lineage(of: session)
        var sources: [SessionID: [AnyEvent]] = [:]
        for source in line.dropLast() { sources[source] = try reader.history(of: source) }
        return (try reader.history(of: session), sources)
      }
      self.init(id: session, events: events, sources: sources)
    } catch {
      throw .unreadableRecording(path: store.path, reason: error.description)
    }
  }

  /// JSON Lines held in memory (a fixture compiled into the test, say), named `name` in errors.
  init(lines bytes: [UInt8], named name: String, session: SessionID?) throws(ReplayError) {
    var bySession: [SessionID: [AnyEvent]] = [:]
    var order: [SessionID] = []
    var lineNumber = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
      if text.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
      let event: AnyEvent
      do {
        event = try WireFormat.decode(AnyEvent.self, from: text)
      } catch {
        throw .unreadableRecording(path: name, reason: "line \(lineNumber): \(error)")
      }
      if bySession[event.session] == nil { order.append(event.session) }
      bySession[event.session, default: []].append(event)
    }
    guard let chosen = session ?? order.last else {
      throw .unreadableRecording(path: name, reason: "it holds no event")
    }
    guard let events = bySession.removeValue(forKey: chosen) else {
      throw .unreadableRecording(
        path: name, reason: "it holds no session \(chosen) (it holds \(order.map(\.rawValue).joined(separator: ", ")))")
    }
    self.init(id: chosen, events: events, sources: bySession)
  }

  init(id: SessionID, events: [AnyEvent], sources: [SessionID: [AnyEvent]]) {
    self.id = id
    self.events = events
    self.sources = sources
  }
}
