import NavCore
import Testing

/// Limits read as they were set.
@Suite struct DurationWordsTests {
  @Test(
    arguments: [
      (604_800_000, "7 days"), (86_400_000, "1 day"), (43_200_000, "12 hours"), (5_400_000, "90 minutes"),
      (60_000, "1 minute"), (3_000, "3 seconds"), (1_500, "1500 ms"), (0, "0 ms"), (90_061_000, "90061 seconds"),
    ] as [(Int64, String)])
  func aDurationIsWrittenInItsLargestExactUnit(milliseconds: Int64, words: String) {
    #expect(DurationWords.exact(milliseconds: milliseconds) == words)
  }
}
