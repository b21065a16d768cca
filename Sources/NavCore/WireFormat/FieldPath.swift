/// Renders a coding path the way a person points at a field: `routes[2].child.tabs[0]`.
enum FieldPath {
  static func render(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text
  }
}
