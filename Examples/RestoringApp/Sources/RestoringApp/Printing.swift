import NavCore

extension Coordinator {
  /// `/mainTabs/feed/numbersList/numberDetail`: the screens on the visible path.
  var visiblePath: String { visibleScreen?.path ?? "(nothing)" }
}

/// Milliseconds since `start` on the continuous clock, for the step log.
func milliseconds(since start: ContinuousClock.Instant) -> Int {
  let elapsed = start.duration(to: .now).components
  return Int(elapsed.seconds) * 1000 + Int(elapsed.attoseconds / 1_000_000_000_000_000)
}
