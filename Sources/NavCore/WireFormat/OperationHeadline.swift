import NavJSON

/// What a list of stored events shows of each operation: its name, the screen it shows and
/// its path, read by the codec from the stored text without building the operation.
///
/// The events export reads it for every row, so it builds only what it shows: the name, the
/// fields the name allows (the same checks, in the same words, as reading the whole
/// operation), the path and the screen's name. The rest of the operation (a screen's payload,
/// a hosted flow, a whole state) is checked as JSON by the same parser, with the same errors,
/// but not built; `verify` and the JSON Lines export read it all.
package struct OperationHeadline: Sendable {
  /// The operation's name.
  package var name: String
  /// The name of the screen it shows (`ScreenName.of`), for the operations that carry one.
  package var screenName: String?
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
      document = try JSONParser.parseDocumentMembers(bytes, reading: Self.reading)
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
      // An object screen was read as its name (see `reading`), which `ScreenName.of` keeps.
      screenName = name.fields.contains(.screen) ? ScreenName.of(try fields.readScreen() as JSONValue) : nil
    } catch {
      throw error.wireFormatError
    }
  }

  /// What the headline builds of each member: the name and the path whole, of an object
  /// screen only its name (as a string, which `ScreenName.of` gives back unchanged), nothing of
  /// the rest.
  private static func reading(_ key: String) -> MemberReading {
    switch OperationField.named(key) {
    case .op?, .path?: .whole
    case .screen?: .name(ScreenName.namer)
    default: .checked
    }
  }
}
