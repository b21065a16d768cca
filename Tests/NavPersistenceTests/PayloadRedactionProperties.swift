import NavCore
import NavTestSupport
@_spi(Internals) import NavTools
import PropertyBased
import Testing

/// What an allow-list keeps of a value: only what lies on a path it names, all of what does,
/// and the same again when applied twice.
@Suite struct PayloadRedactionProperties {
  static let keys = ["a", "b", "c"]

  static func value(depth: Int, using rng: inout some RandomNumberGenerator) -> JSONValue {
    switch depth == 0 ? Int.random(in: 0...1, using: &rng) : Int.random(in: 0...3, using: &rng) {
    case 0: return .string(String(Int.random(in: 0...9, using: &rng)))
    case 1: return .number(Double(Int.random(in: 0...9, using: &rng)))
    case 2:
      return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth: depth - 1, using: &rng) })
    default:
      var fields: [String: JSONValue] = [:]
      for key in keys where Bool.random(using: &rng) { fields[key] = value(depth: depth - 1, using: &rng) }
      return .object(fields)
    }
  }

  /// Every plain value of `value`, with the keys that lead to it (arrays add none).
  static func leaves(_ value: JSONValue, _ path: [String] = []) -> [([String], JSONValue)] {
    switch value {
    case .object(let fields): fields.flatMap { leaves($0.value, path + [$0.key]) }
    case .array(let elements): elements.flatMap { leaves($0, path) }
    default: [(path, value)]
    }
  }

  static let cases = Generator<(JSONValue, [[String]]), Shrink.None<(JSONValue, [[String]])>> { rng in
    let paths = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
      (0..<Int.random(in: 1...3, using: &rng)).map { _ in keys.randomElement(using: &rng) ?? "a" }
    }
    return (value(depth: 3, using: &rng), paths)
  }

  @Test func onlyAndAllOfWhatThePathsName() async {
    await checkProperty(count: 300, input: Self.cases) { value, paths in
      let redaction = PayloadRedaction(omits: true, kept: paths)
      let kept = redaction.apply(value)
      let named = { (path: [String]) in paths.contains { path.starts(with: $0) } }
      let keptLeaves = kept.map { Self.leaves($0) } ?? []
      #expect(
        keptLeaves.allSatisfy { named($0.0) }, "only what a path names: \(value) \(paths) → \(String(describing: kept))"
      )
      let wanted = Self.leaves(value).filter { named($0.0) }
      #expect(keptLeaves.count == wanted.count, "all of it: \(value) \(paths) → \(String(describing: kept))")
      #expect(redaction.apply(kept) == kept, "applied twice")
      #expect(PayloadRedaction(omits: false, kept: paths).apply(value) == value, "nothing omitted: nothing changes")
    }
  }

  @Test func pathsAreKeysJoinedByDots() throws {
    #expect(try PayloadRedaction.paths(["a.b, c", "d"]) == [["a", "b"], ["c"], ["d"]])
    #expect(throws: PayloadRedaction.PathsError.notAPath("a..b")) { try PayloadRedaction.paths(["x,a..b"]) }
    let many = (0...PayloadRedaction.maximumPaths).map { "k\($0)" }.joined(separator: ",")
    #expect(throws: PayloadRedaction.PathsError.tooMany(PayloadRedaction.maximumPaths + 1)) {
      try PayloadRedaction.paths([many])
    }
    #expect(PayloadRedaction.path("productDetail.id") == ["productDetail", "id"])
    #expect(PayloadRedaction.path("id") == ["id"])
    for wrong in ["", ".id", "a..b", "a."] { #expect(PayloadRedaction.path(wrong) == nil, "\(wrong)") }
  }

  /// A screen named by a `type` or `name` member keeps it beside the fields kept, so that its
  /// parameters are the fields kept; one keeping none of them is empty.
  @Test func aScreenKeepsWhatNamesIt() {
    let redaction = PayloadRedaction(omits: true, kept: [["id"]])
    let typed: JSONValue = ["type": "productDetail", "id": "sku", "shopper": "Ann"]
    #expect(redaction.apply(screen: typed) == ["type": "productDetail", "id": "sku"])
    #expect(ScreenName.parameters(of: redaction.apply(screen: typed) ?? .null) == ["id": "sku"])
    #expect(redaction.apply(screen: ["name": "search", "query": "Ann"]) == nil)
    #expect(redaction.apply(screen: ["productDetail": ["id": "sku", "shopper": "Ann"]]) == nil)
    #expect(PayloadRedaction.none.apply(screen: typed) == typed)
  }
}
