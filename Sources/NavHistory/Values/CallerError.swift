/// An error thrown by a closure the caller handed to the store (an export's sink, a replay's
/// body), carried through the store's typed `StoreError` without being reclassified.
///
/// The store's calls throw only `StoreError`, so the caller's own error arrives as
/// `StoreError.caller(CallerError)`; `error` is exactly what the closure threw, to be matched by
/// type (`error.error as? MyError`). Its description is the caller's error's, so a command-line
/// tool prints what its own sink said ("cannot write to standard output: No space left on
/// device") and not a database message.
public struct CallerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What the caller's closure threw.
  public let error: any Error

  /// Wraps a caller's error.
  package init(_ error: any Error) {
    self.error = error
  }

  public var description: String { "\(error)" }

  /// Two caller errors are equal when they are of the same type and read the same: `any Error`
  /// has no equality of its own.
  public static func == (lhs: CallerError, rhs: CallerError) -> Bool {
    type(of: lhs.error) == type(of: rhs.error) && String(reflecting: lhs.error) == String(reflecting: rhs.error)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: error)))
    hasher.combine(String(reflecting: error))
  }
}
