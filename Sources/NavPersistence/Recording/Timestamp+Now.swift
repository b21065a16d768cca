import Foundation
import NavCore

extension Timestamp {
  /// The current time from the system clock, to the millisecond. NavCore takes time as input
  /// and never reads a clock; the store and the CLI read it here.
  public static func now() -> Timestamp {
    Timestamp(millisecondsSince1970: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
  }
}
