extension Duration {
  /// The duration in seconds, fraction included, as Foundation's intervals, rates and log
  /// lines take it (attosecond precision is more than a `Double` keeps, and more than they need).
  package var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
