@_spi(Internals) import NavArchive
import NavCore
import NavHistory
import NavPersistence

extension SessionStore {
  /// Checks sessions (all of them, in id order, by default) in one read transaction, calling
  /// `each` with every session's result as it is found; returns the counts. Memory holds one
  /// session's snapshots at a time. `each`'s errors come back as `.caller`.
  @discardableResult
  @_spi(Internals) public func verify(
    _ sessions: [SessionID]? = nil, each: (VerificationResult) throws -> Void
  ) throws(StoreError) -> VerificationSummary {
    try withReadTransaction { engine throws(StoreError) in
      var summary = VerificationSummary()
      try engine.verify(sessions) { result throws(StoreError) in
        summary.add(result)
        try StoreEngine.callingBack { try each(result) }
      }
      return summary
    }
  }

  /// Checks sessions, streaming each result to `each` (see the synchronous `verify(_:each:)`).
  @discardableResult
  package func verify(
    _ sessions: [SessionID]? = nil, each: @escaping @Sendable (VerificationResult) throws -> Void
  ) async throws(StoreError) -> VerificationSummary {
    try await offloaded { () throws(StoreError) in try self.verify(sessions, each: each) }
  }
}
