extension Duration {
  /// The duration in whole milliseconds, held at `Int64.min` or `Int64.max` when it has more:
  /// what the store's timeouts and ages are counted in, and the database's lock waits.
  package var clampedMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    let limit = seconds < 0 ? Int64.min : Int64.max
    guard !overflow else { return limit }
    let (total, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
    return sumOverflow ? limit : total
  }
}
