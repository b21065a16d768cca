import CustomDump
import Testing

/// Expects two values to be equal, showing a structural diff when they are not.
///
/// Built on `#expect` rather than CustomDump's `expectNoDifference`: on Linux the latter did not
/// reach Swift Testing (a planted bug went unreported), so an assertion through it could not fail.
func expectSame<T: Equatable>(
  _ actual: T, _ expected: T, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    actual == expected,
    "\(comment)\n\(diff(expected, actual, format: .proportional) ?? "")",
    sourceLocation: sourceLocation)
}
