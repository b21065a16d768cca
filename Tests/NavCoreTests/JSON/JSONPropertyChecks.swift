import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// Runs `body` over random JSON values.
func propertyCheckJSON(count: Int = 300, _ body: @escaping (JSONValue) throws -> Void) async {
  await checkProperty(count: count, input: TreeGen.json(depth: 4)) { value in
    try body(value)
  }
}
