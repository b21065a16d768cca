import Foundation
import NavFleet

extension PartitionSweepResult {
  /// What a prune on PostgreSQL says about the partitions of the months it left empty: the
  /// months whose space came back, or a warning that it did not (nil when no month was empty).
  var terminalLine: (text: String, isWarning: Bool)? {
    switch self {
    case .dropped(let months):
      guard !months.isEmpty else { return nil }
      return ("dropped the partitions of \(Self.words(months)): no session of theirs is left", false)
    case .keptWhileBusy(let months):
      return ("the partitions of \(Self.words(months)) stay until a later prune: the tables stayed busy", true)
    case .failed(let error):
      return ("the partitions of the months left empty stay until a later prune: \(error.terminalMessage)", true)
    }
  }

  /// Months (YYYYMM) as a person reads them: `2026-03, 2026-04`.
  private static func words(_ months: [Int]) -> String {
    months.map { String(format: "%04d-%02d", $0 / 100, $0 % 100) }.joined(separator: ", ")
  }
}
