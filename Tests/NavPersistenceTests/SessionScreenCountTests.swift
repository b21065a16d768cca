import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// A session's `screen_count` is the visits its screen views hold: for random sessions (tabs,
/// nested flows, sheets and covers, the background, restores, changes made of several events),
/// the sessions table counts the distinct `visit_id`s of the session's `screen-views` rows,
/// whatever the filter chooses of the sessions; a session whose history cannot be replayed keeps
/// its row, with no count.
@Suite struct SessionScreenCountTests {
  /// Random sessions whose events now and then join the change before them: the same time,
  /// origin and cause, as one `record` call stores a deep link.
  static func sessions(using rng: inout some RandomNumberGenerator) -> [[AnyEvent]] {
    (0..<Int.random(in: 1...4, using: &rng)).map { index in
      var events = ScreenViewVisitProperties.session(index, using: &rng)
      let cause = JSONValue.object(["openLink": .object(["id": .number(Double(index))])])
      for position in events.indices.dropFirst() where Int.random(in: 0..<3, using: &rng) == 0 {
        guard !events[position].operation.isLifecycle, !events[position - 1].operation.isLifecycle else { continue }
        events[position].at = events[position - 1].at
        (events[position - 1].origin, events[position].origin) = (.app, .app)
        (events[position - 1].cause, events[position].cause) = (cause, cause)
      }
      return events
    }
  }

  /// Each session's `screen_count` in the sessions export with `filter`.
  static func counts(_ store: SessionStore, _ filter: ExportFilter = ExportFilter()) throws -> [String: ExportValue] {
    var counts: [String: ExportValue] = [:]
    let columns = ExportTable.sessions.columns
    try store.export(.sessions, filter: filter) { row in
      let values = Dictionary(uniqueKeysWithValues: zip(columns, row.values))
      if case .text(let session)? = values["session"] { counts[session] = values["screen_count"] ?? .null }
    }
    return counts
  }

  @Test func aSessionsScreenCountIsTheVisitsOfItsScreenViews() async throws {
    let scenarios = Generator<[[AnyEvent]], Shrink.None<[[AnyEvent]]>> { rng in Self.sessions(using: &rng) }
    await checkProperty(count: 60, input: scenarios) { sessions in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("c.sqlite"))
      for event in sessions.flatMap({ $0 }) { try store.append(event) }
      var visits: [String: Set<ExportValue>] = [:]
      let columns = ExportTable.screenViews.columns
      try store.export(.screenViews) { row in
        let values = Dictionary(uniqueKeysWithValues: zip(columns, row.values))
        if case .text(let session)? = values["session"] {
          visits[session, default: []].insert(values["visit_id"] ?? .null)
        }
      }
      let counts = try Self.counts(store)
      #expect(counts.count == sessions.count, "one row per session")
      for events in sessions {
        let id = events[0].session.rawValue
        #expect(
          counts[id] == .integer(Int64(visits[id]?.count ?? 0)),
          "\(id): screen_count \(String(describing: counts[id])), \(visits[id]?.count ?? 0) visits in its views")
      }
      // A filter chooses sessions, not what is counted of them: a session active after a time
      // within it counts the visits before that time too.
      let middle = sessions[0][sessions[0].count / 2].at
      for (id, count) in try Self.counts(store, ExportFilter(since: middle)) {
        #expect(count == counts[id], "\(id): counted the same under `since`")
      }
    }
  }

  @Test func aSessionThatCannotBeReplayedKeepsItsRowWithNoCount() throws {
    let folder = try TemporaryFolder()
    let path = folder.path("d.sqlite")
    let store = try SessionStore(path: path)
    for id in ["broken", "whole"] {
      try store.append(event(id, .start(.stack(stack("R+home")))))
      try store.append(event(id, .push("detail"), offset: 1_000))
      try store.append(event(id, .push("more"), offset: 2_000))
    }
    let connection = try SQLiteConnection(path: path, mode: .readWrite(create: false))
    try connection.execute(
      """
      DROP TRIGGER events_are_append_only_update;
      UPDATE events SET op = '{not json' WHERE session_id = 'broken' AND seq = 2;
      """)
    let counts = try Self.counts(try SessionStore(path: path))
    #expect(counts["broken"] == .null, "no count where the history does not replay")
    #expect(counts["whole"] == .integer(3))
  }
}
