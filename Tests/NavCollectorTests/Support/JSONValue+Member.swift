import NavCore

extension JSONValue {
  /// A member of an object, for reading answers (`nil` when this is not an object).
  subscript(key: String) -> JSONValue? {
    objectValue?[key]
  }
}
