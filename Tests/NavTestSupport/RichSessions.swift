@_spi(Internals) import NavCore

/// Sessions with everything the rules look at: tabs and nested flows (random trees and
/// operations), lifecycle phases, an end, a context, a restored-from link and a launch.
public enum RichSessions {
  public static func make(count: Int, using rng: inout some RandomNumberGenerator) -> [[AnyEvent]] {
    (0..<count).map { index in
      let id = "s\(index)-" + String(UInt32.random(in: 0...UInt32.max, using: &rng), radix: 36)
      var events = RandomSession.make(id: id, using: &rng, length: Int.random(in: 1...40, using: &rng)).events
      if index % 3 == 0, case .start(let state, _, _, _) = events[0].operation.kind {
        let link = index > 0 ? SessionLink(session: sessionID("s0-linked"), seq: 2) : nil
        let context = SessionContext(appVersion: "2.\(index)", osName: "iOS", deviceModel: "iPhone15,\(index)")
        // A launch: a restore that dropped routes, or a fresh start with its reason.
        let launch =
          link == nil
          ? LaunchRecord(outcome: .startedFresh, reason: "tooOld")
          : LaunchRecord(
            outcome: .restored,
            dropped: [.init(path: .top, index: 1, screen: "gone", routes: index, error: "no case named 'gone'")])
        events[0].operation = .start(state, restoredFrom: link, context: context, launch: launch)
      }
      // Lifecycle events between the navigation, and sometimes an end.
      var lifecycle: [AnyEvent] = []
      var inBackground = false
      for (position, event) in events.enumerated() {
        lifecycle.append(event)
        if position > 0, Int.random(in: 0..<5, using: &rng) == 0 {
          lifecycle.append(
            AnyEvent(
              session: event.session, seq: nil, at: event.at, origin: .app,
              operation: inBackground ? .foreground : .background))
          inBackground.toggle()
        }
      }
      if index % 4 == 1 {
        lifecycle.append(
          AnyEvent(
            session: events[0].session, seq: nil, at: events[events.count - 1].at, origin: .app,
            operation: .end(reason: "signed out")))
      }
      // Times: mostly forward, now and then the same as the one before or back (the clock columns).
      return lifecycle.enumerated().map { position, event in
        var timed = event
        var step = Int64(position) * 1_000 - (position % 7 == 6 ? 2_500 : 0)
        if position % 5 == 4 { step -= 1_000 }
        timed.at = Timestamp(millisecondsSince1970: 1_795_000_000_000 + step)
        timed.seq = position + 1
        return timed
      }
    }
  }

  /// The sessions' events as upload lines, interleaved across sessions and cut into batches.
  public static func batches(_ sessions: [[AnyEvent]], using rng: inout some RandomNumberGenerator) throws
    -> [[ArraySlice<UInt8>]]
  {
    var queues = sessions
    var lines: [ArraySlice<UInt8>] = []
    while queues.contains(where: { !$0.isEmpty }) {
      let open = queues.indices.filter { !queues[$0].isEmpty }
      let pick = open[Int.random(in: 0..<open.count, using: &rng)]
      lines.append(ArraySlice(try WireFormat.canonicalBytes(queues[pick].removeFirst())))
    }
    var batches: [[ArraySlice<UInt8>]] = []
    while !lines.isEmpty {
      let size = min(lines.count, Int.random(in: 1...50, using: &rng))
      batches.append(Array(lines.prefix(size)))
      lines.removeFirst(size)
    }
    return batches
  }
}
