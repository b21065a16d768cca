import Foundation
import NavCore

extension Timestamp {
  /// The current time from the system clock, to the millisecond. NavCore takes time as input
  /// and never reads a clock; the store and the CLI read it here.
  public static var now: Timestamp { Timestamp(Date()) }

  /// A `Date`, to the millisecond (rounded to the nearest).
  public init(_ date: Date) {
    self.init(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded()))
  }

  /// The time as a `Date`.
  public var date: Date {
    Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
  }
}
