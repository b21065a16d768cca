import Foundation
import NavCore

/// A session's path, event by event, as `replay --walk` shows it: each event's line as `history`
/// prints it, after the time since the session's start, and the updates its change takes on the
/// host (SwiftUI applies one navigation change per update); played at the recorded pace
/// (scaled), a line at a time on Enter, or at once.
struct WalkPlayer {
  /// How the walk moves from one event to the next.
  enum Pace {
    /// At the recorded times, divided by the speed; a gap longer than `longestWait` is cut to it.
    case recorded(speed: Double)
    /// On Enter (a line read from standard input); at its end, without waiting.
    case stepped
    /// Without waiting.
    case none
  }

  /// One event of the walk, worked out before the walk begins (the store is read once).
  struct Stop {
    var event: AnyEvent
    /// Milliseconds since the session's first event (negative when the clock went back).
    var offset: Int64
    /// The line `history` prints for the event.
    var line: String
    /// The screen on top after it, compact.
    var screen: String
    /// The updates its change takes on the host (a restored start's: from its launch state; a
    /// fresh start's: none).
    var updates: Int
  }

  let host: HostProfile
  let pace: Pace
  let json: Bool
  let time: (Timestamp) -> String

  /// The longest wait between two lines at the recorded pace: a user away ten minutes is not
  /// waited for.
  static let longestWait = 5_000

  /// The walk's stop for `event`, whose state after it is `state` (`before`: the state before).
  func stop(_ event: AnyEvent, state: AnyCoordinator, before: AnyCoordinator?, first: Timestamp, previous: Timestamp?)
    throws -> Stop
  {
    let from = before ?? (event.operation.restoredFrom != nil ? state.launchState : state)
    // The plan's first step is where it starts (contents only): the host's updates are the rest.
    let updates = max(0, ((try? AnyCoordinator.plan(from: from, to: state, host: host).steps.count) ?? 1) - 1)
    return Stop(
      event: event, offset: event.at.millisecondsSince1970 - first.millisecondsSince1970,
      line: try HistoryCommand.line(event, state: state, previous: previous, json: false, time: time),
      screen: HistoryCommand.visibleScreen(of: state), updates: updates)
  }

  /// Prints the stops, waiting as `pace` says.
  func walk(_ session: SessionID, _ stops: [Stop]) throws {
    if !json {
      let how =
        switch pace {
        case .recorded(let speed): speed == 1 ? "at the recorded pace" : "at \(speed)x the recorded pace"
        case .stepped: "an event each time Enter is pressed"
        case .none: "without waiting"
        }
      print("Walking \(session), \(stops.count) event\(stops.count == 1 ? "" : "s"), under \(host), \(how)")
    }
    if case .recorded = pace { Interruption.install() }
    var previous: Int64?
    var standardInputOpen = true
    for (index, stop) in stops.enumerated() {
      switch pace {
      case .recorded(let speed):
        let gap = max(0, stop.offset - (previous ?? stop.offset))
        let wait = min(Double(gap) / speed, Double(Self.longestWait)).rounded(.up)
        guard Interruption.sleep(milliseconds: Int(wait)) else {
          throw CLIError(
            "walk interrupted before event \(index + 1) of \(stops.count)", exitStatus: Interruption.exitStatus)
        }
      case .stepped:
        if standardInputOpen && index > 0 { standardInputOpen = readLine() != nil }
      case .none:
        break
      }
      print(try json ? jsonLine(stop) : textLine(stop))
      fflush(nil)
      previous = stop.offset
    }
  }

  /// `+12.4s  ` then the history line, then the updates when the host needs more than one.
  private func textLine(_ stop: Stop) -> String {
    let sign = stop.offset < 0 ? "-" : "+"
    let seconds = String(format: "%@%.1fs", sign, Double(abs(stop.offset)) / 1000)
    let updates = stop.updates > 1 ? "  (\(stop.updates) updates on \(host))" : ""
    return seconds.padding(toLength: max(seconds.count, 9), withPad: " ", startingAt: 0) + stop.line + updates
  }

  /// `{"seq", "at", "offsetMs", "origin", "op", "cause", "screen", "updates"}`: one object per event.
  private func jsonLine(_ stop: Stop) throws -> String {
    let value: JSONValue = .object([
      "seq": .number(Double(stop.event.seq ?? 0)),
      "at": .string(stop.event.at.description),
      "offsetMs": .number(Double(stop.offset)),
      "origin": .string(stop.event.origin.rawValue),
      "op": .string(stop.event.operation.name),
      "cause": stop.event.cause ?? .null,
      "screen": .string(stop.screen),
      "updates": .number(Double(stop.updates)),
    ])
    return try WireFormat.canonicalString(value)
  }
}
