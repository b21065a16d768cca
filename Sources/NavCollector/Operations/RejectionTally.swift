import NavContract
import NavCore
import NavFleet
import NavPersistence
import Synchronization

/// The upload lines this collector has rejected since it started, by app and reason: what the
/// console's overview shows a `read` token of that app. The metrics count every app together,
/// and a console shows one app only.
final class RejectionTally: Sendable {
  private let counts = Mutex<[AppName: [RejectionReason: Int]]>([:])
  /// When the count began: the collector's start.
  let since = Timestamp.now

  /// Counts `outcome`'s rejected lines for `app`.
  func note(_ outcome: UploadOutcome, app: AppName) {
    var found: [RejectionReason: Int] = [:]
    for line in outcome.lines {
      if case .rejected(let rejection) = line.outcome { found[rejection.reason, default: 0] += 1 }
    }
    guard !found.isEmpty else { return }
    counts.withLock { counts in counts[app, default: [:]].merge(found, uniquingKeysWith: +) }
  }

  /// `app`'s rejected lines by reason, most first (then by reason, for a stable order).
  func counts(of app: AppName) -> [(reason: RejectionReason, lines: Int)] {
    let mine = counts.withLock { $0[app] ?? [:] }
    return mine.map { (reason: $0.key, lines: $0.value) }.sorted {
      ($0.lines, $1.reason.rawValue) > ($1.lines, $0.reason.rawValue)
    }
  }
}
