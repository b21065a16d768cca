import NavJSON

/// The entry points for reading and writing the wire format (docs/spec/wire-format.md).
///
/// Text is parsed once, strictly, into `JSONValue`; typed values are then decoded from the tree,
/// so errors carry both kinds of location: a line and column for broken JSON, a field path for
/// valid JSON of the wrong shape.
public enum WireFormat {
  /// Decodes a wire-format value from UTF-8 JSON text.
  public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws(WireFormatError)
    -> T
  {
    let decoded =
      bytes.withContiguousStorageIfAvailable { buffer in
        Result { () throws(WireFormatError) in try decode(type, from: buffer) }
      }
      ?? Array(bytes).withUnsafeBufferPointer { buffer in
        Result { () throws(WireFormatError) in try decode(type, from: buffer) }
      }
    return try decoded.get()
  }

  /// Decodes a wire-format value from UTF-8 JSON text in an array.
  package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(WireFormatError) -> T {
    let decoded = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(WireFormatError) in try decode(type, from: buffer) }
    }
    return try decoded.get()
  }

  /// Decodes a wire-format value from UTF-8 JSON text in place (a SQLite column's, say).
  package static func decode<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>)
    throws(WireFormatError) -> T
  {
    if T.self == AnyEvent.self || T.self == AnyOperation.self || T.self == AnyCoordinator.self {
      // What the store reads by the million (import lines, stored operations, snapshots): the
      // top-level object goes to the reader as parsed, with no dictionary built for it.
      return try decodeDocument(type, from: bytes)
    }
    let tree: JSONValue
    do {
      tree = try JSONParser.parse(bytes)
    } catch {
      throw WireFormatError(field: "", message: error.description)
    }
    return try decode(type, from: tree)
  }

  /// An untyped event, operation or state from a whole document.
  private static func decodeDocument<T: Decodable>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>)
    throws(WireFormatError) -> T
  {
    let document: JSONParser.ParsedDocument
    do {
      document = try JSONParser.parseDocumentMembers(bytes)
    } catch {
      throw WireFormatError(field: "", message: error.description)
    }
    let members: [(String, JSONValue)]
    switch document {
    case .members(let objectMembers): members = objectMembers
    case .value(let tree): return try decode(type, from: tree)  // not an object: refused, as from a tree
    }
    do {
      // (`T` is that very type, so each bit cast is an identity, without a dynamic cast's cost.)
      if T.self == AnyEvent.self {
        return unsafeBitCast(try AnyEvent.read(object: WireObjectReader(members: members)), to: T.self)
      }
      if T.self == AnyOperation.self {
        return unsafeBitCast(try AnyOperation.read(object: WireObjectReader(members: members)), to: T.self)
      }
      return unsafeBitCast(try AnyCoordinator.read(object: WireObjectReader(members: members)), to: T.self)
    } catch {
      throw error.wireFormatError
    }
  }

  /// Decodes a wire-format value from JSON text.
  public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws(WireFormatError) -> T {
    try decode(type, from: Array(text.utf8))
  }

  /// Decodes a wire-format value from a parsed JSON tree.
  ///
  /// The wire format's own values (events, operations, states, routes, paths, links, plan
  /// steps) are read by the one codec, typed or untyped; any other `Decodable` goes through
  /// the tree decoder, with its errors translated the same way.
  package static func decode<T: Decodable>(_ type: T.Type, from tree: JSONValue) throws(WireFormatError)
    -> T
  {
    do {
      // The untyped values the store and the CLI read by the million are named, so that their
      // reading is compiled for `JSONValue` screens rather than run generically.
      // (`T` is that very type, so the bit cast is an identity, without a dynamic cast's cost.)
      if T.self == AnyEvent.self { return unsafeBitCast(try AnyEvent.read(from: tree), to: T.self) }
      if T.self == AnyOperation.self { return unsafeBitCast(try AnyOperation.read(from: tree), to: T.self) }
      if T.self == AnyCoordinator.self { return unsafeBitCast(try AnyCoordinator.read(from: tree), to: T.self) }
      if let wireType = T.self as? any WireValue.Type, let value = try wireType.read(from: tree) as? T { return value }
    } catch {
      throw error.wireFormatError
    }
    do {
      return try JSONValueDecoder().decode(type, from: tree)
    } catch {
      throw WireFormatError(error)
    }
  }

  /// The JSON tree of a value (typed screens become JSON through their `Codable` conformance).
  package static func tree<T: Encodable>(of value: T) throws(WireFormatError) -> JSONValue {
    if let wireValue = value as? any WireValue {
      let bytes = try canonicalBytes(of: wireValue)
      do {
        return try JSONParser.parseOwnCanonical(bytes)
      } catch {
        throw WireFormatError(field: "", message: error.description)
      }
    }
    do {
      return try JSONValueEncoder().encode(value)
    } catch {
      throw WireFormatError(error)
    }
  }

  /// The canonical (RFC 8785) text of a value: compact, keys sorted; what the CLI prints and
  /// what the hash chain hashes.
  public static func canonicalString<T: Encodable>(_ value: T) throws(WireFormatError) -> String {
    String(decoding: try canonicalBytes(value), as: UTF8.self)
  }

  /// The canonical (RFC 8785) UTF-8 bytes of a value. The wire format's own values are written
  /// by the one codec, straight to bytes.
  package static func canonicalBytes<T: Encodable>(_ value: T) throws(WireFormatError) -> [UInt8] {
    if let event = value as? AnyEvent { return try canonicalBytes(of: event) }
    if let operation = value as? AnyOperation { return try canonicalBytes(of: operation) }
    if let state = value as? AnyCoordinator { return try canonicalBytes(of: state) }
    if let wireValue = value as? any WireValue { return try canonicalBytes(of: wireValue) }
    return try tree(of: value).canonicalBytes
  }

  /// The canonical text of a path (`[]` for the top), as the events export's `path` column
  /// gives it for every event.
  package static func canonicalString(_ path: CoordinatorPath) throws(WireFormatError) -> String {
    String(decoding: try canonicalBytes(of: path), as: UTF8.self)
  }

  private static func canonicalBytes(of value: some WireValue) throws(WireFormatError) -> [UInt8] {
    do {
      return try value.canonicalBytes()
    } catch {
      throw error.wireFormatError
    }
  }

  /// An untyped event's canonical bytes and, separately, its operation's: the store hashes the
  /// first and keeps the second as the stored operation, and both come from one encoding.
  package static func canonicalEncoding(of event: AnyEvent) throws(WireFormatError) -> (
    event: [UInt8], operation: [UInt8]
  ) {
    let operation: [UInt8]
    do {
      operation = try event.operation.canonicalBytes()
    } catch {
      // Report what writing the whole event reports: its first field at fault in key order.
      _ = try canonicalBytes(of: event)
      throw error.inside("op").wireFormatError
    }
    var writer = CanonicalWriter(capacity: operation.count + 128)
    do {
      try event.write(to: &writer, operationBytes: operation)
    } catch {
      throw error.wireFormatError
    }
    return (writer.bytes, operation)
  }
}

/// Why a document is not acceptable wire format, naming the field at fault.
public struct WireFormatError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The field at fault, as a path (`op.routes[0].style`); empty for the document as a whole.
  public var field: String
  /// What is wrong, in words.
  public var message: String

  /// Creates an error.
  package init(field: String, message: String) {
    self.field = field
    self.message = message
  }

  /// Translates a `DecodingError` or `EncodingError` into a message that names the field.
  init(_ error: any Error) {
    if let error = error as? WireFormatError {
      self = error
    } else {
      self = WireFailure(error).wireFormatError
    }
  }

  public var description: String {
    field.isEmpty ? message : "\(field): \(message)"
  }
}
