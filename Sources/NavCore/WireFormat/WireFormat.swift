/// The entry points for reading and writing the wire format (docs/spec/wire-format.md).
///
/// Text is parsed once, strictly, into `JSONValue`; typed values are then decoded from the tree,
/// so errors carry both kinds of location: a line and column for broken JSON, a field path for
/// valid JSON of the wrong shape.
public enum WireFormat {
  /// Decodes a wire-format value from UTF-8 JSON text.
  public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws(WireFormatError) -> T {
    let tree: JSONValue
    do {
      tree = try JSONParser.parse(bytes)
    } catch {
      throw WireFormatError(field: "", message: error.description)
    }
    return try decode(type, from: tree)
  }

  /// Decodes a wire-format value from JSON text.
  public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws(WireFormatError) -> T {
    try decode(type, from: Array(text.utf8))
  }

  /// Decodes a wire-format value from a parsed JSON tree.
  public static func decode<T: Decodable>(_ type: T.Type, from tree: JSONValue) throws(WireFormatError) -> T {
    // The untyped values the store and the CLI read by the million take the direct reader; it
    // accepts only what the decoders below accept, and leaves every refusal (and its message)
    // to them.
    if T.self == AnyEvent.self, let event = UntypedTreeReader.event(tree) as? T { return event }
    if T.self == AnyOperation.self, let operation = UntypedTreeReader.operation(tree) as? T { return operation }
    if T.self == AnyCoordinator.self, let state = UntypedTreeReader.coordinator(tree) as? T { return state }
    do {
      return try JSONValueDecoder().decode(type, from: tree)
    } catch {
      throw WireFormatError(error)
    }
  }

  /// The JSON tree of a value (typed screens become JSON through their `Codable` conformance).
  public static func tree<T: Encodable>(of value: T) throws(WireFormatError) -> JSONValue {
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

  /// The canonical (RFC 8785) UTF-8 bytes of a value. Untyped events, operations and states
  /// are written directly, without building a tree first.
  public static func canonicalBytes<T: Encodable>(_ value: T) throws(WireFormatError) -> [UInt8] {
    if let event = value as? AnyEvent { return try canonicalEncoding(of: event).event }
    var writer = UntypedCanonicalWriter()
    let written: Bool
    switch value {
    case let operation as AnyOperation: written = writer.operation(operation)
    case let state as AnyCoordinator: written = writer.coordinator(state)
    default: written = false
    }
    return written ? writer.output : try tree(of: value).canonicalBytes
  }

  /// An untyped event's canonical bytes and, separately, its operation's: the store hashes the
  /// first and keeps the second as the stored operation, and both come from one encoding.
  package static func canonicalEncoding(of event: AnyEvent) throws(WireFormatError) -> (event: [UInt8], operation: [UInt8]) {
    var operationWriter = UntypedCanonicalWriter()
    if operationWriter.operation(event.operation) {
      var eventWriter = UntypedCanonicalWriter(capacity: operationWriter.output.count + 128)
      if eventWriter.event(event, operationBytes: operationWriter.output) {
        return (eventWriter.output, operationWriter.output)
      }
    }
    // The general encoder, for its error (it refuses what the writer could not write).
    return (try tree(of: event).canonicalBytes, try tree(of: event.operation).canonicalBytes)
  }
}

/// Why a document is not acceptable wire format, naming the field at fault.
public struct WireFormatError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The field at fault, as a path (`op.routes[0].style`); empty for the document as a whole.
  public var field: String
  /// What is wrong, in words.
  public var message: String

  /// Creates an error.
  public init(field: String, message: String) {
    self.field = field
    self.message = message
  }

  /// Translates a `DecodingError` or `EncodingError` into a message that names the field.
  init(_ error: any Error) {
    switch error {
    case let error as WireFormatError:
      self = error
    case DecodingError.keyNotFound(let key, let context):
      self.init(
        field: FieldPath.render(context.codingPath + [key]),
        message: "missing field \"\(key.stringValue)\"")
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
      DecodingError.dataCorrupted(let context):
      self.init(field: FieldPath.render(context.codingPath), message: context.debugDescription)
    case EncodingError.invalidValue(_, let context):
      self.init(field: FieldPath.render(context.codingPath), message: context.debugDescription)
    default:
      self.init(field: "", message: "\(error)")
    }
  }

  public var description: String {
    field.isEmpty ? message : "\(field): \(message)"
  }
}
