import NavCore
import NavPersistence

/// How many bytes the uploader may send in a day: a cap the app sets for its users' data plans.
///
/// Every request body that may have gone out is counted (gzip'd, as sent, each attempt; one
/// that found no network is not), in the store, so the cap holds across launches. Days are UTC
/// days. When the next batch would pass a cap, the uploader sends
/// a smaller one that fits, or nothing: what waits stays in the store until the next day, or
/// until the network is no longer expensive. A cap never drops an event.
///
/// ```swift
/// // At most 20 MB a day, of which 2 MB on cellular; Network's NWPathMonitor (started with
/// // start(queue:)) says which.
/// let budget = UploadBudget(
///   bytesPerDay: 20_000_000, bytesPerDayOnExpensiveNetwork: 2_000_000,
///   networkIsExpensive: { monitor.currentPath.isExpensive })
/// ```
public struct UploadBudget: Sendable {
  /// Bytes a day on any network; `nil` for no cap.
  public var bytesPerDay: Int?
  /// Bytes a day while `networkIsExpensive()` (cellular, a personal hotspot); `nil` for no cap
  /// of its own, 0 for none at all on such a network.
  public var bytesPerDayOnExpensiveNetwork: Int?
  /// Whether the device is on an expensive network now; asked before each request.
  public var networkIsExpensive: @Sendable () -> Bool

  /// A budget; the default caps nothing.
  public init(
    bytesPerDay: Int? = nil, bytesPerDayOnExpensiveNetwork: Int? = nil,
    networkIsExpensive: @escaping @Sendable () -> Bool = { false }
  ) {
    self.bytesPerDay = bytesPerDay.map { max(0, $0) }
    self.bytesPerDayOnExpensiveNetwork = bytesPerDayOnExpensiveNetwork.map { max(0, $0) }
    self.networkIsExpensive = networkIsExpensive
  }

  /// No cap: every batch goes when it can.
  package static let unlimited = UploadBudget()

  /// Whether any cap is set (an unlimited budget costs the uploader no store reads).
  var caps: Bool { bytesPerDay != nil || bytesPerDayOnExpensiveNetwork != nil }

  /// The bytes that may still be sent today, after `spent`, on a network that is `expensive`
  /// or not; `Int.max` when nothing caps it.
  func room(after spent: UploadSpending, expensive: Bool) -> Int {
    var room = Int.max
    if let bytesPerDay { room = min(room, bytesPerDay - spent.bytes) }
    if expensive, let cap = bytesPerDayOnExpensiveNetwork { room = min(room, cap - spent.expensiveBytes) }
    return max(0, room)
  }
}
