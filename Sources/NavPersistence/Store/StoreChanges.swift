import NavCore

/// Tells whoever listens that the store was written: for the uploader, which sleeps until there
/// is something new rather than counting the store on a timer.
package final class StoreChanges: Sendable {
  private struct Listeners {
    var next = 0
    var all: [Int: AsyncStream<Void>.Continuation] = [:]
  }

  private let listeners = Protected(Listeners())

  /// A stream that yields after each write (writes close together may yield once), until it is
  /// let go of.
  package func stream() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let id = listeners.withLock { listeners in
      defer { listeners.next += 1 }
      listeners.all[listeners.next] = continuation
      return listeners.next
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.listeners.withLock { $0.all.removeValue(forKey: id) }
    }
    return stream
  }

  /// A write committed.
  func changed() {
    for continuation in listeners.withLock({ Array($0.all.values) }) { continuation.yield() }
  }
}
