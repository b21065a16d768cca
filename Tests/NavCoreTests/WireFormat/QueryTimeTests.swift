import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// Times as a person or a script writes them to choose sessions: the wire format's own text
/// reads as the same moment, a date is its first moment in UTC, fewer or more fraction digits
/// and an offset are taken, and what is not a time is refused with a reason.
@Suite struct QueryTimeTests {
  /// Times within the years the wire format writes.
  static let times = Gen.int(in: -62_167_219_200_000...253_402_300_799_999).map {
    Timestamp(millisecondsSince1970: Int64($0))
  }

  @Test func theWireFormatsTextIsTheSameMoment() async {
    await checkProperty(count: 300, input: Self.times) { time in
      let read = try Timestamp(query: time.rfc3339)
      #expect(read == time)
    }
  }

  @Test func aTimeWithAnOffsetIsTheSameMomentInUTC() async {
    await checkProperty(count: 300, input: Self.times, Gen.int(in: -23...23)) { time, hours in
      // The same moment written in the zone `hours` east of UTC, to the millisecond.
      let shifted = Timestamp(millisecondsSince1970: time.millisecondsSince1970 + Int64(hours) * 3_600_000)
      guard (-62_167_219_200_000...253_402_300_799_999).contains(shifted.millisecondsSince1970) else { return }
      let local = String(shifted.rfc3339.dropLast())  // without its Z
      let offset = (hours < 0 ? "-" : "+") + (abs(hours) < 10 ? "0" : "") + "\(abs(hours)):00"
      let read = try Timestamp(query: local + offset)
      #expect(read == time, "\(local + offset)")
    }
  }

  @Test func theFormsPeopleWrite() throws {
    let noon = try Timestamp(rfc3339: "2026-11-21T12:00:00.000Z")
    #expect(try Timestamp(query: "2026-11-21") == (try Timestamp(rfc3339: "2026-11-21T00:00:00.000Z")))
    for text in [
      "2026-11-21T12:00", "2026-11-21T12:00Z", "2026-11-21 12:00:00", "2026-11-21t12:00:00z", "2026-11-21T12:00:00.0",
      "2026-11-21T13:00+01:00", "2026-11-21T07:30-04:30", "2026-11-21T12:00:00.000999Z",
    ] {
      #expect(try Timestamp(query: text) == noon, "\(text)")
    }
    #expect(try Timestamp(query: "2026-11-21T12:00:00.25Z").millisecondsSince1970 == noon.millisecondsSince1970 + 250)
  }

  @Test func whatIsNotATimeIsRefusedWithAReason() {
    for (text, reason) in [
      ("yesterday", "expected a digit at position 1"), ("2026-13-01", "month 13 does not exist"),
      ("2026-02-30", "day 30 does not exist in that month"), ("2026-11-21T24:00", "the time of day is out of range"),
      ("2026-11-21T12:00:00.", "expected digits after the '.'"), ("2026-11-21T12:00+1", "the text ends too early"),
      ("2026-11-21T12:00 UTC", "expected 'Z', an offset like +01:00, or nothing after the time"),
      ("2026-11-21X", "expected 'T' between the date and the time"),
    ] {
      do {
        _ = try Timestamp(query: text)
        Issue.record("'\(text)' was read as a time")
      } catch {
        #expect(error.reason == reason && error.text == text, "\(text): \(error.reason)")
      }
    }
  }
}
