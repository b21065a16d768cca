import NavUpload

extension FlushOutcome {
  /// Whether the flush ended in `willRetry(after:)`, whatever the wait.
  public var isWillRetry: Bool {
    if case .willRetry = self { return true }
    return false
  }
}
