import NavContract
import NavCore

extension SessionStore {
  /// The head of each of `sessions`, in one read transaction: seq 0 and no hash for a session
  /// the store does not hold. What a collector answers `POST /v1/heads` with.
  package func heads(of sessions: [SessionID]) throws(StoreError) -> [SessionID: SessionHead] {
    try read { reader throws(StoreError) in
      var heads: [SessionID: SessionHead] = [:]
      for session in sessions { heads[session] = try reader.head(of: session) }
      return heads
    }
  }
}
