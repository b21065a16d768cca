import NavPersistence

/// The store's upload bookkeeping, for tests that see only what an app sees (the docs' tests):
/// what the uploader spent is not an app's to read, but a doc's claim about it is checked.
public enum UploadProbe {
  /// The bytes the uploader sent today (request bodies, as sent).
  public static func bytesSentToday(by store: SessionStore) async throws -> Int {
    try await store.uploadSpending().bytes
  }
}
