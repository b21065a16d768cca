import Foundation
import NavCore
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// Random sessions (tabs, nested flows, sheets and covers, the background, restores): the views'
/// visit ids, previous screens and arrivals agree with a replay of the history, and a visit's
/// views add up to its time in the foreground.
@Suite struct ScreenViewVisitProperties {
  /// The history as the property replays it: each event its own change (no two share a time),
  /// so a visit begins at every event after which another screen, or another place, is on top.
  struct Replay {
    /// The seq each visit began at, and its time in the foreground.
    var visits: [(start: Int, milliseconds: Int64)] = []
    /// The arrival each visit's change made, by the visit's first seq.
    var arrivals: [Int: (kind: String, direction: String)] = [:]

    init(_ events: [AnyEvent]) {
      var state: AnyCoordinator?
      var phase = SessionPhase.foreground
      var key: (CoordinatorPath, Int, String)?
      for (index, event) in events.enumerated() {
        if index > 0, phase == .foreground, !visits.isEmpty {
          visits[visits.count - 1].milliseconds += max(
            0, event.at.millisecondsSince1970 - events[index - 1].at.millisecondsSince1970)
        }
        let before = state
        if case .start(let first, _, _, _) = event.operation.kind {
          state = first
        } else if let current = state {
          state = try? current.applying(event.operation)
        }
        switch event.operation.name {
        case "background": phase = .background
        case "foreground": phase = .foreground
        case "end": phase = .ended
        default:
          guard let state, let visible = state.visibleScreen else { continue }
          let place = (visible.coordinator, visible.index, visible.name)
          if let key, key.0 == place.0, key.1 == place.1, key.2 == place.2 { continue }
          let seq = index + 1
          visits.append((seq, 0))
          arrivals[seq] = Self.arrival(of: event.operation, before: before, after: state, visible: visible)
          key = place
        }
      }
    }

    /// The arrival the rules give one operation: what it does, and whether the screen it leaves
    /// on top stood at its place before, covered, with the same value.
    static func arrival(
      of operation: AnyOperation, before: AnyCoordinator?, after: AnyCoordinator, visible: VisibleScreen
    )
      -> (kind: String, direction: String)
    {
      if case .start(_, let link, _, _) = operation.kind { return (link == nil ? "start" : "restore", "forward") }
      var uncovered = false
      if let before, case .stack(let old)? = try? before.coordinator(at: visible.coordinator),
        case .stack(let new)? = try? after.coordinator(at: visible.coordinator), old.indices.contains(visible.index),
        old[visible.index].screen == new[visible.index].screen, let shown = before.visibleScreen
      {
        uncovered = shown.coordinator != visible.coordinator || shown.index != visible.index
      }
      let name = operation.name
      let brings = ["push", "presentSheet", "presentCover", "selectTab", "setTabs"].contains(name)
      let isReturn = uncovered && !brings
      let kind: String
      switch name {
      case "push": kind = "push"
      case "presentSheet", "presentCover": kind = "present"
      case "dismiss", "dismissAll": kind = "dismiss"
      case "selectTab", "setTabs": kind = "tab"
      case "setRoutes", "updateScreen": kind = isReturn ? "back" : "replace"
      default: kind = "back"
      }
      return (kind, isReturn ? "return" : "forward")
    }

    /// The visit that was on top at `seq`.
    func visit(at seq: Int) -> Int? { visits.last { $0.start <= seq }?.start }
  }

  /// A random session: the operations of a random tree, the app leaving and coming back at
  /// random moments, sometimes an end, sometimes a restored start; every event at its own time
  /// (now and then earlier than the one before, as device clocks go).
  static func session(_ index: Int, using rng: inout some RandomNumberGenerator) -> [AnyEvent] {
    let id = "v\(index)"
    var events = RandomSession.make(id: id, using: &rng, length: Int.random(in: 1...30, using: &rng)).events
    if Bool.random(using: &rng), case .start(let state, _, _, _) = events[0].operation.kind {
      events[0].operation = .start(state, restoredFrom: SessionLink(session: sessionID("earlier"), seq: 1))
    }
    var lived: [AnyEvent] = []
    var inBackground = false
    for event in events {
      lived.append(event)
      if Int.random(in: 0..<4, using: &rng) == 0 {
        lived.append(
          AnyEvent(session: event.session, at: event.at, operation: inBackground ? .foreground : .background))
        inBackground.toggle()
      }
    }
    if Int.random(in: 0..<4, using: &rng) == 0 {
      lived.append(AnyEvent(session: lived[0].session, at: lived[0].at, operation: .end()))
    }
    var time: Int64 = 1_795_000_000_000
    var used: Set<Int64> = []
    for index in lived.indices {
      repeat {
        time +=
          Int.random(in: 0..<8, using: &rng) == 0
          ? -Int64.random(in: 1...3_000, using: &rng) : Int64.random(in: 1...20_000, using: &rng)
      } while used.contains(time)
      used.insert(time)
      lived[index].at = Timestamp(millisecondsSince1970: time)
      lived[index].seq = nil
    }
    return lived
  }

  @Test func visitsPreviousScreensAndArrivalsAgreeWithAReplay() async throws {
    let scenarios = Generator<[[AnyEvent]], Shrink.None<[[AnyEvent]]>> { rng in
      (0..<Int.random(in: 1...3, using: &rng)).map { Self.session($0, using: &rng) }
    }
    await checkProperty(count: 60, input: scenarios) { sessions in
      let folder = try TemporaryFolder()
      let store = try SessionStore(path: folder.path("v.sqlite"))
      for event in sessions.flatMap({ $0 }) { try store.append(event) }
      var views: [[String: ExportValue]] = []
      try store.export(.screenViews) { row in
        views.append(Dictionary(uniqueKeysWithValues: zip(ExportTable.screenViews.columns, row.values)))
      }
      for events in sessions {
        let id = events[0].session.rawValue
        let replay = Replay(events)
        let own = views.filter { $0["session"] == .text(id) }
        func seq(_ view: [String: ExportValue]) -> Int {
          if case .integer(let seq)? = view["seq"] { Int(seq) } else { 0 }
        }
        var visitOf: [ExportValue: Int] = [:]
        var total: [ExportValue: Int64] = [:]
        var first: [ExportValue: [String: ExportValue]] = [:]
        for (position, view) in own.enumerated() {
          let visitID = view["visit_id"] ?? .null
          #expect(view["view_id"] == .text("\(id)#\(seq(view))"))
          guard let visit = replay.visit(at: seq(view)) else {
            Issue.record("\(id): a view at seq \(seq(view)) before any visit")
            continue
          }
          if let known = visitOf[visitID] {
            #expect(known == visit, "\(id): the rows of visit \(visitID) belong to one visit of the replay")
            #expect(view["resumed"] == .boolean(true), "\(id): a visit's later rows are its returns to the app")
            for column in ["previous_screen", "previous_path", "arrival", "direction", "origin", "cause_action"] {
              #expect(view[column] == first[visitID]?[column], "\(id): a visit's rows share its \(column)")
            }
          } else {
            #expect(!visitOf.values.contains(visit), "\(id): one visit of the replay, one visit id")
            #expect(view["view_id"] == visitID, "\(id): a visit's id is its first row's")
            let previous = position == 0 ? .null : own[position - 1]["screen"] ?? .null
            #expect(view["previous_screen"] == previous, "\(id): the previous screen is the last one seen")
            let expected = replay.arrivals[visit]
            #expect(
              view["arrival"] == expected.map { .text($0.kind) }
                && view["direction"] == expected.map { .text($0.direction) },
              "\(id): seq \(seq(view)) arrived by \(String(describing: view["arrival"])), the replay says \(String(describing: expected))"
            )
            visitOf[visitID] = visit
            first[visitID] = view
          }
          if case .integer(let duration)? = view["duration_ms"] { total[visitID, default: 0] += duration }
        }
        for (visitID, visit) in visitOf {
          let milliseconds = replay.visits.first { $0.start == visit }?.milliseconds
          #expect(total[visitID] == milliseconds, "\(id): visit \(visitID)'s rows add up to its foreground time")
        }
      }
    }
  }
}
