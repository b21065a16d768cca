import NavCore
import Testing

/// An app's own action becomes an event's cause directly, in the canonical form the hash chain
/// hashes, the same in every run.
struct CauseEncodingTests {
  enum Action: Encodable {
    case numberTapped(Int)
    case filtersApplied(filters: [String: Int], note: String?)
  }

  @Test func anActionIsItsCanonicalJSON() throws {
    #expect(
      try WireFormat.canonicalString(JSONValue(encoding: Action.numberTapped(7))) == #"{"numberTapped":{"_0":7}}"#)
    #expect(try JSONValue(encoding: JSONValue("as is")) == "as is")
  }

  @Test func aDictionaryInsideGivesTheSameCauseWhateverItsOrder() throws {
    // Swift seeds its hashing per process, so a dictionary's order differs from run to run;
    // two dictionaries built differently differ in order within one run too.
    let keys = (0..<64).map { "filter\($0)" }
    var ascending: [String: Int] = [:]
    for (value, key) in keys.enumerated() { ascending[key] = value }
    var descending = [String: Int](minimumCapacity: 1024)
    for (value, key) in keys.enumerated().reversed() { descending[key] = value }
    let first = try JSONValue(encoding: Action.filtersApplied(filters: ascending, note: nil))
    let second = try JSONValue(encoding: Action.filtersApplied(filters: descending, note: nil))
    #expect(first == second)
    let text = try WireFormat.canonicalString(first)
    #expect(text == (try WireFormat.canonicalString(second)))
    // The same bytes as in any other run: keys sorted by code point, numbers shortest.
    let members = keys.enumerated().map { (value, key) in (key, value) }.sorted { $0.0 < $1.0 }
      .map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",")
    #expect(text == #"{"filtersApplied":{"filters":{"# + members + "}}}")
  }

  @Test func whatJSONCannotHoldIsRefusedNamingTheField() {
    struct Measured: Encodable { var ratio: Double }
    #expect(throws: WireFormatError.self) { try JSONValue(encoding: Measured(ratio: .nan)) }
    do {
      _ = try JSONValue(encoding: Measured(ratio: .infinity))
      Issue.record("an infinity was encoded")
    } catch {
      #expect(error.field == "ratio")
    }
  }
}
