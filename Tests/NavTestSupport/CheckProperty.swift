import PropertyBased
import Testing

/// `propertyCheck` with one difference: an error the body throws is a failure of that case.
///
/// swift-property-based runs each case under `try?` (on Swift 6.2 and later), so a thrown error
/// is neither an issue nor a failed case: a property whose store fails to open, or whose first
/// `try` throws, passes without checking anything. Every property of these tests goes through
/// here, so that a `try` in a property means what it means in a test.
public func checkProperty<InputValue, ResultValue>(
  count: Int = 100,
  input: Generator<ResultValue, some Sequence<InputValue>>,
  perform body: (ResultValue) async throws -> Void,
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  await propertyCheck(
    count: count, input: input,
    perform: { value in
      do {
        try await body(value)
      } catch {
        Issue.record(error, "the property threw", sourceLocation: sourceLocation)
      }
    }, isolation: isolation, sourceLocation: sourceLocation)
}

/// `checkProperty` over two generators, whose values are the body's two arguments.
public func checkProperty<InA, InB, OutA, OutB>(
  count: Int = 100,
  input first: Generator<OutA, some Sequence<InA>>,
  _ second: Generator<OutB, some Sequence<InB>>,
  perform body: (OutA, OutB) async throws -> Void,
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  await checkProperty(
    count: count, input: zip(first, second), perform: { try await body($0.0, $0.1) }, isolation: isolation,
    sourceLocation: sourceLocation)
}

/// `checkProperty` over three generators, whose values are the body's three arguments.
public func checkProperty<InA, InB, InC, OutA, OutB, OutC>(
  count: Int = 100,
  input first: Generator<OutA, some Sequence<InA>>,
  _ second: Generator<OutB, some Sequence<InB>>,
  _ third: Generator<OutC, some Sequence<InC>>,
  perform body: (OutA, OutB, OutC) async throws -> Void,
  isolation: isolated (any Actor)? = #isolation,
  sourceLocation: SourceLocation = #_sourceLocation
) async {
  await checkProperty(
    count: count, input: zip(first, second, third), perform: { try await body($0.0, $0.1, $0.2) },
    isolation: isolation, sourceLocation: sourceLocation)
}
