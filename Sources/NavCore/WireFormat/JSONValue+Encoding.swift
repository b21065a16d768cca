extension JSONValue {
  /// The JSON of any `Encodable` value: how an app's own action becomes an event's `cause`.
  ///
  /// ```swift
  /// enum Action: Codable { case numberTapped(Int) }
  /// let cause = try JSONValue(encoding: Action.numberTapped(7))  // {"numberTapped":{"_0":7}}
  /// ```
  ///
  /// The value is encoded the way screens are, straight into a tree with no JSON text in
  /// between; what is stored and hashed is the tree's canonical form (keys sorted, numbers in
  /// their shortest form), so the same action gives the same cause, and the same event hash, in
  /// every run, whatever order a dictionary inside it iterates in. Values JSON cannot hold
  /// exactly (NaN, an infinity, an integer beyond 2^53) are refused, naming the field.
  public init(encoding value: some Encodable) throws(WireFormatError) {
    self = try WireFormat.tree(of: value)
  }

  /// `action`'s JSON as an event's cause: `nil` when there is no action (`nil`, JSON's `null`).
  /// What the model's `perform` and the recorder's `record(_:cause:)` both keep.
  package static func cause(encoding action: some Encodable) throws(WireFormatError) -> JSONValue? {
    let cause = try JSONValue(encoding: action)
    // Not a ternary: its `nil` would be JSONValue's own nil literal, `.null`.
    guard cause != .null else { return Optional.none }
    return cause
  }
}
