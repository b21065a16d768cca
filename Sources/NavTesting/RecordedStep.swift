import NavCore

/// One thing that happened to a recorded session after its start, in the order it happened:
/// one of the app's actions, a change with no action behind it (the user's gesture, or the app
/// changing its state outside `perform`), or the app's lifecycle.
struct RecordedStep {
  enum Kind {
    /// The app's action: the events that share a cause, an origin and a moment, and the
    /// lifecycle events the same action reported right after them (a sign-out's `end`).
    case action(RecordedCause)
    /// Events with no cause, applied as recorded: one change the host wrote back, say.
    case change
    /// A lifecycle event with no cause: the app went to the background, came back, or ended.
    case lifecycle(LifecycleEvent)
  }

  var kind: Kind
  /// The step's events, in seq order.
  var events: [AnyEvent]

  /// The seq of the step's last event.
  var lastSeq: Int { events.last?.seq ?? 0 }

  /// `events` (a session's events after its start) as steps.
  static func steps(of events: ArraySlice<AnyEvent>) -> [RecordedStep] {
    var steps: [RecordedStep] = []
    var index = events.startIndex
    while index < events.endIndex {
      let first = events[index]
      var end = events.index(after: index)
      let sameMoment = { (event: AnyEvent) in
        event.cause == first.cause && event.at == first.at && event.origin == first.origin
      }
      if let cause = first.cause {
        while end < events.endIndex, sameMoment(events[end]) { end += 1 }
        // The lifecycle events an action reported come after its change, with its cause.
        while end < events.endIndex, events[end].cause == cause, lifecycle(of: events[end]) != nil { end += 1 }
        steps.append(RecordedStep(kind: .action(RecordedCause(cause)), events: Array(events[index..<end])))
      } else if let event = lifecycle(of: first) {
        steps.append(RecordedStep(kind: .lifecycle(event), events: [first]))
      } else {
        while end < events.endIndex, sameMoment(events[end]), lifecycle(of: events[end]) == nil { end += 1 }
        steps.append(RecordedStep(kind: .change, events: Array(events[index..<end])))
      }
      index = end
    }
    return steps
  }

  /// The lifecycle event an event records, if it records one.
  static func lifecycle(of event: AnyEvent) -> LifecycleEvent? {
    switch event.operation.kind {
    case .background: .background
    case .foreground: .foreground
    case .end(let reason): .end(reason: reason)
    default: nil
    }
  }
}
