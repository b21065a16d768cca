/// Decodes any `Decodable` value from a `JSONValue`.
///
/// NavStore parses text once (strictly) and then reads values from the tree. The wire format's
/// own values are read by its codec; this decoder is for everything else that is `Decodable`,
/// above all an app's typed screens, which the codec hands to it. Errors are `DecodingError`s
/// whose coding path names the field that was wrong.
package struct JSONValueDecoder {
  /// Creates a decoder.
  package init() {}

  /// Decodes a value of the given type from a JSON tree.
  package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try T(from: TreeDecoder(value: value, codingPath: []))
  }
}

/// A coding key for any member name or array position.
package struct AnyCodingKey: CodingKey, Hashable {
  package var stringValue: String
  package var intValue: Int?

  package init(_ string: String) {
    self.stringValue = string
    self.intValue = nil
  }

  package init(stringValue: String) { self.init(stringValue) }

  package init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }
}

struct TreeDecoder: JSONValueDecoding {
  let value: JSONValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw mismatch(expected: "an object", in: value, at: codingPath)
    }
    return KeyedDecodingContainer(KeyedTreeContainer<Key>(members: members, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw mismatch(expected: "an array", in: value, at: codingPath)
    }
    return UnkeyedTreeContainer(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleTreeContainer(value: value, codingPath: codingPath)
  }
}

func mismatch(expected: String, in value: JSONValue, at path: [any CodingKey]) -> DecodingError {
  DecodingError.typeMismatch(
    Any.self,
    .init(codingPath: path, debugDescription: "expected \(expected), found \(value.kindDescription)"))
}

/// Reads a primitive out of a JSON value, with the conversions Swift's numeric types need.
enum TreeUnboxing {
  static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
    guard case .bool(let bool) = value else { throw mismatch(expected: "a boolean", in: value, at: path) }
    return bool
  }

  static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
    guard case .string(let string) = value else { throw mismatch(expected: "a string", in: value, at: path) }
    return string
  }

  static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
    guard case .number(let number) = value else { throw mismatch(expected: "a number", in: value, at: path) }
    return number
  }

  static func integer<T: FixedWidthInteger>(_ value: JSONValue, _ path: [any CodingKey]) throws -> T {
    let number = try double(value, path)
    guard let integer = T(exactly: number) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: path,
          debugDescription: "expected an integer that fits \(T.self), found \(CanonicalJSON.format(number))"))
    }
    return integer
  }

  static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
    if T.self == JSONValue.self, let tree = value as? T { return tree }
    return try T(from: TreeDecoder(value: value, codingPath: path))
  }
}

struct KeyedTreeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [String: JSONValue]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  private func member(_ key: Key) throws -> JSONValue {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key, .init(codingPath: codingPath, debugDescription: "missing field \"\(key.stringValue)\""))
    }
    return value
  }

  private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

  func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try TreeUnboxing.bool(member(key), path(key)) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try TreeUnboxing.string(member(key), path(key)) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try TreeUnboxing.double(member(key), path(key)) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    Float(try TreeUnboxing.double(member(key), path(key)))
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try TreeUnboxing.integer(member(key), path(key)) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try TreeUnboxing.integer(member(key), path(key)) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try TreeUnboxing.integer(member(key), path(key)) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try TreeUnboxing.integer(member(key), path(key)) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try TreeUnboxing.integer(member(key), path(key)) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try TreeUnboxing.integer(member(key), path(key)) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try TreeUnboxing.integer(member(key), path(key)) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try TreeUnboxing.integer(member(key), path(key))
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try TreeUnboxing.integer(member(key), path(key))
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try TreeUnboxing.integer(member(key), path(key))
  }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try TreeUnboxing.decode(type, member(key), path(key))
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try TreeDecoder(value: member(key), codingPath: path(key)).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try TreeDecoder(value: member(key), codingPath: path(key)).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    TreeDecoder(value: members["super"] ?? .null, codingPath: codingPath + [AnyCodingKey("super")])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    TreeDecoder(value: members[key.stringValue] ?? .null, codingPath: path(key))
  }
}

struct UnkeyedTreeContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  private(set) var currentIndex = 0

  init(elements: [JSONValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private var elementPath: [any CodingKey] { codingPath + [AnyCodingKey(intValue: currentIndex)] }

  private mutating func next() throws -> JSONValue {
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        Any.self,
        .init(codingPath: elementPath, debugDescription: "expected another element, the array has \(elements.count)"))
    }
    defer { currentIndex += 1 }
    return elements[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex] == .null else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let p = elementPath
    return try TreeUnboxing.bool(next(), p)
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let p = elementPath
    return try TreeUnboxing.string(next(), p)
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let p = elementPath
    return try TreeUnboxing.double(next(), p)
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let p = elementPath
    return Float(try TreeUnboxing.double(next(), p))
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    let p = elementPath
    return try TreeUnboxing.integer(next(), p)
  }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let p = elementPath
    return try TreeUnboxing.decode(type, next(), p)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let p = elementPath
    return try TreeDecoder(value: next(), codingPath: p).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let p = elementPath
    return try TreeDecoder(value: next(), codingPath: p).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let p = elementPath
    return TreeDecoder(value: try next(), codingPath: p)
  }
}

struct SingleTreeContainer: SingleValueDecodingContainer {
  let value: JSONValue
  let codingPath: [any CodingKey]

  func decodeNil() -> Bool { value == .null }
  func decode(_ type: Bool.Type) throws -> Bool { try TreeUnboxing.bool(value, codingPath) }
  func decode(_ type: String.Type) throws -> String { try TreeUnboxing.string(value, codingPath) }
  func decode(_ type: Double.Type) throws -> Double { try TreeUnboxing.double(value, codingPath) }
  func decode(_ type: Float.Type) throws -> Float { Float(try TreeUnboxing.double(value, codingPath)) }
  func decode(_ type: Int.Type) throws -> Int { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: Int8.Type) throws -> Int8 { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: Int16.Type) throws -> Int16 { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: Int32.Type) throws -> Int32 { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: Int64.Type) throws -> Int64 { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: UInt.Type) throws -> UInt { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try TreeUnboxing.integer(value, codingPath) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try TreeUnboxing.integer(value, codingPath) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try TreeUnboxing.decode(type, value, codingPath) }
}
