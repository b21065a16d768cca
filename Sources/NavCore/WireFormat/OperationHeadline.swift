/// What a list of stored events shows of each operation: its name, the screen it shows and
/// its path, read by the codec from the stored text without building the operation.
///
/// The events export reads it for every row, so it reads only what it shows: the name, the
/// fields the name allows (the same checks, in the same words, as reading the whole
/// operation), the path and the screen. The rest of the operation (a hosted flow, a whole
/// state) is checked as JSON but not read; `verify` and the JSON Lines export read it all.
package struct OperationHeadline: Sendable {
  /// The operation's name.
  package var name: String
  /// The screen it shows, for the operations that carry one.
  package var screen: JSONValue?
  /// The coordinator it changes.
  package var path: CoordinatorPath

  /// The path's canonical text, as the export shows it.
  package func pathText() throws(WireFormatError) -> String {
    // Most operations change the top coordinator: its text is written once.
    path.isTop ? Self.topPathText : try WireFormat.canonicalString(path)
  }

  private static let topPathText: String = {
    var writer = CanonicalWriter(capacity: 2)
    try? CoordinatorPath.top.write(to: &writer)  // no step, so nothing that can fail
    return String(decoding: writer.bytes, as: UTF8.self)
  }()

  /// Reads the headline of a stored operation.
  package init(storedOperation bytes: UnsafeBufferPointer<UInt8>) throws(WireFormatError) {
    let document: JSONParser.ParsedDocument
    do {
      document = try JSONParser.parseDocumentMembers(bytes)
    } catch {
      throw WireFormatError(field: "", message: error.description)
    }
    do {
      let object: WireObjectReader<OperationField>
      switch document {
      case .members(let members): object = WireObjectReader(members: members)
      case .value(let tree): object = try WireObjectReader(tree)
      }
      let fields = OperationFieldReader(object)
      let (name, path) = try AnyOperation.readNameAndPath(fields)
      self.name = name.rawValue
      self.path = path
      // (`JSONValue` is nil-literal expressible: absence is spelled out so it is not `null`.)
      screen = name.fields.contains(.screen) ? .some(try fields.readScreen()) : Optional<JSONValue>.none
    } catch {
      throw error.wireFormatError
    }
  }
}
