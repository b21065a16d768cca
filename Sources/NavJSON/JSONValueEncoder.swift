/// Encodes any `Encodable` value into a `JSONValue`.
///
/// The counterpart of `JSONValueDecoder`: typed screens become the same JSON trees the tools
/// handle, so a typed app and the CLI hash, name and compare screens identically. Values JSON
/// cannot hold exactly (NaN, infinities, integers a double would round) are refused rather than
/// rounded.
package struct JSONValueEncoder {
  /// Creates an encoder.
  package init() {}

  /// Encodes a value into a JSON tree.
  package func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    if let tree = value as? JSONValue { return tree }
    let node = EncodingNode()
    try value.encode(to: TreeEncoder(node: node, codingPath: []))
    return node.finish()
  }
}

/// One value under construction. Containers write into nodes they share with their parent,
/// because Swift's encoding containers are values that outlive the call that made them.
final class EncodingNode {
  enum Content {
    case unset
    case value(JSONValue)
    case object([String: EncodingNode])
    case array([EncodingNode])
  }

  var content: Content = .unset

  func finish() -> JSONValue {
    switch content {
    case .unset: return .object([:])
    case .value(let value): return value
    case .object(let members): return .object(members.mapValues { $0.finish() })
    case .array(let elements): return .array(elements.map { $0.finish() })
    }
  }

  // Both take the collection out of `content` before changing it, so that it has one owner and
  // grows in place: a copy per member made encoding an object of n members cost n².

  func child(forKey key: String) -> EncodingNode {
    var members: [String: EncodingNode] = [:]
    if case .object(let existing) = content {
      if let node = existing[key] { return node }
      members = existing
    }
    content = .unset
    let node = EncodingNode()
    members[key] = node
    content = .object(members)
    return node
  }

  func appendChild() -> EncodingNode {
    var elements: [EncodingNode] = []
    if case .array(let existing) = content { elements = existing }
    content = .unset
    let node = EncodingNode()
    elements.append(node)
    content = .array(elements)
    return node
  }

  func makeObject() {
    if case .object = content { return }
    content = .object([:])
  }

  func makeArray() {
    if case .array = content { return }
    content = .array([])
  }
}

struct TreeEncoder: JSONValueEncoding {
  let node: EncodingNode
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func store(_ value: JSONValue) { node.content = .value(value) }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    node.makeObject()
    return KeyedEncodingContainer(KeyedTreeEncodingContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    node.makeArray()
    return UnkeyedTreeEncodingContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleTreeEncodingContainer(node: node, codingPath: codingPath)
  }
}

/// Turns primitives into JSON values, refusing those JSON numbers cannot hold exactly.
enum TreeBoxing {
  static func number(_ value: Double, _ path: [any CodingKey]) throws -> JSONValue {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: path, debugDescription: "\(value) cannot be written as a JSON number"))
    }
    return .number(value)
  }

  static func integer<T: BinaryInteger>(_ value: T, _ path: [any CodingKey]) throws -> JSONValue {
    guard let double = Double(exactly: value) else {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: path, debugDescription: "integer \(value) cannot be stored exactly as a JSON number (a double)"))
    }
    return .number(double)
  }

  static func encode<T: Encodable>(_ value: T, into node: EncodingNode, _ path: [any CodingKey]) throws {
    if let tree = value as? JSONValue {
      node.content = .value(tree)
      return
    }
    try value.encode(to: TreeEncoder(node: node, codingPath: path))
  }
}

struct KeyedTreeEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  private func set(_ value: JSONValue, _ key: Key) {
    node.child(forKey: key.stringValue).content = .value(value)
  }

  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { set(try TreeBoxing.number(value, path(key)), key) }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(try TreeBoxing.number(Double(value), path(key)), key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { set(try TreeBoxing.integer(value, path(key)), key) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try TreeBoxing.encode(value, into: node.child(forKey: key.stringValue), path(key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: path(key)).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: path(key)).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath + [AnyCodingKey("super")])
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: path(key))
  }
}

struct UnkeyedTreeEncodingContainer: UnkeyedEncodingContainer {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  var count: Int {
    if case .array(let elements) = node.content { return elements.count }
    return 0
  }

  private var nextPath: [any CodingKey] { codingPath + [AnyCodingKey(intValue: count)] }

  private func append(_ value: JSONValue) { node.appendChild().content = .value(value) }

  mutating func encodeNil() throws { append(.null) }
  mutating func encode(_ value: Bool) throws { append(.bool(value)) }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws { append(try TreeBoxing.number(value, nextPath)) }
  mutating func encode(_ value: Float) throws { append(try TreeBoxing.number(Double(value), nextPath)) }
  mutating func encode(_ value: Int) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: Int8) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: Int16) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: Int32) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: Int64) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: UInt) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: UInt8) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: UInt16) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: UInt32) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode(_ value: UInt64) throws { append(try TreeBoxing.integer(value, nextPath)) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = nextPath
    try TreeBoxing.encode(value, into: node.appendChild(), path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let path = nextPath
    return TreeEncoder(node: node.appendChild(), codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    return TreeEncoder(node: node.appendChild(), codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return TreeEncoder(node: node.appendChild(), codingPath: path)
  }
}

struct SingleTreeEncodingContainer: SingleValueEncodingContainer {
  let node: EncodingNode
  let codingPath: [any CodingKey]

  private func set(_ value: JSONValue) { node.content = .value(value) }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws { set(try TreeBoxing.number(value, codingPath)) }
  mutating func encode(_ value: Float) throws { set(try TreeBoxing.number(Double(value), codingPath)) }
  mutating func encode(_ value: Int) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: Int8) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: Int16) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: Int32) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: Int64) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: UInt) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: UInt8) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: UInt16) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: UInt32) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode(_ value: UInt64) throws { set(try TreeBoxing.integer(value, codingPath)) }
  mutating func encode<T: Encodable>(_ value: T) throws { try TreeBoxing.encode(value, into: node, codingPath) }
}
