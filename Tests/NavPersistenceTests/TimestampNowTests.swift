import Foundation
import NavCore
import NavPersistence
import Testing

/// `Timestamp.now` and `Timestamp(Date)`: what a Swift user reaches for first.
@Suite struct TimestampNowTests {
  @Test func aDateConvertsToTheMillisecondAndBack() {
    let date = Date(timeIntervalSince1970: 1_795_000_000.1234)
    let time = Timestamp(date)
    #expect(time.millisecondsSince1970 == 1_795_000_000_123)
    #expect(abs(time.date.timeIntervalSince1970 - 1_795_000_000.123) < 0.000_001)
  }

  @Test func nowIsTheSystemClocksTime() {
    let before = Date()
    let now = Timestamp.now
    let after = Date()
    #expect(Timestamp(before) <= now && now <= Timestamp(after))
  }
}
