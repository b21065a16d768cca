/// A value handed from one thread to another, which alone uses it from then on: the giver gave
/// it up through `sending`, and the compiler cannot follow a value into a `@Sendable` closure
/// (a dispatch queue's work item, a thread's body) even then.
package struct UncheckedTransfer<Value>: @unchecked Sendable {
  /// The value handed over.
  package let value: Value

  package init(_ value: sending Value) { self.value = value }
}
