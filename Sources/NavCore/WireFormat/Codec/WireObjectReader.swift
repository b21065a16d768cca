import NavJSON

/// A wire-format object being read: its members, sorted into the fields its type declares in
/// one pass, with the checks every object makes in the same words (unknown members, missing
/// ones).
struct WireObjectReader<Field: WireField> {
  private let members: Members

  /// An object's members: from a tree, or as a top-level document was parsed (in order, with
  /// no dictionary built).
  private enum Members {
    case tree([String: JSONValue])
    case list([(String, JSONValue)])
  }

  /// Refuses anything but an object.
  init(_ tree: JSONValue) throws(WireFailure) {
    guard case .object(let members) = tree else { throw .mismatch(expected: "an object", found: tree) }
    self.members = .tree(members)
  }

  /// The members of an object parsed as a document's top level (`JSONParser.parseDocumentMembers`).
  init(members: [(String, JSONValue)]) {
    self.members = .list(members)
  }

  /// The members in a list: as parsed, or copied out of a tree's dictionary.
  var memberList: [(String, JSONValue)] {
    switch members {
    case .tree(let members): Array(members)
    case .list(let members): members
    }
  }

  private var memberCount: Int {
    switch members {
    case .tree(let members): members.count
    case .list(let members): members.count
    }
  }

  private var keys: [String] {
    switch members {
    case .tree(let members): Array(members.keys)
    case .list(let members): members.map(\.0)
    }
  }

  /// Hands each member that names a field to `take`, in one pass (no key is hashed), and
  /// returns how many did; members that name none are left for `refuseUnknown`.
  @discardableResult
  func sort(_ take: (Field, JSONValue) -> Void) -> Int {
    var named = 0
    func offer(_ key: String, _ value: JSONValue) {
      guard let field = Field.named(key) else { return }
      named += 1
      take(field, value)
    }
    switch members {
    case .tree(let members): for (key, value) in members { offer(key, value) }
    case .list(let members): for (key, value) in members { offer(key, value) }
    }
    return named
  }

  /// Refuses any member outside `allowed` (the allowed fields, in the order messages list them),
  /// given how many of the allowed fields are present: when they account for every member,
  /// there is nothing to look at. `what` names the object: `a route`, `an event`.
  func refuseUnknown(allowed: @autoclosure () -> [Field], present: Int, in what: @autoclosure () -> String)
    throws(WireFailure)
  {
    guard present != memberCount else { return }
    let allowed = allowed().map(\.rawValue)
    for key in keys.sorted() where !allowed.contains(key) {
      let expected = allowed.isEmpty ? "no other fields" : allowed.map { "\"\($0)\"" }.joined(separator: ", ")
      throw WireFailure(at: [AnyCodingKey(key)], "unknown field \"\(key)\" in \(what()) (allowed: \(expected))")
    }
  }

  /// A field that must be present, read by `read`; failures are placed under the field.
  func required<T>(_ value: JSONValue?, _ field: Field, _ read: (JSONValue) throws(WireFailure) -> T)
    throws(WireFailure) -> T
  {
    guard let value else { throw WireFailure(at: [AnyCodingKey(field.rawValue)], "missing field \(field.quoted)") }
    return try WireObjectReader.member(value, field, read)
  }

  /// A field that may be absent; when present it must be readable (`null` is not absence).
  func optional<T>(_ value: JSONValue?, _ field: Field, _ read: (JSONValue) throws(WireFailure) -> T)
    throws(WireFailure) -> T?
  {
    guard let value else { return nil }
    return try WireObjectReader.member(value, field, read)
  }

  /// A failure at the object itself or at a field below it (a structure rule's).
  func failure(at path: [AnyCodingKey], _ message: String) -> WireFailure {
    WireFailure(at: path, message)
  }

  static func member<T>(_ value: JSONValue, _ field: Field, _ read: (JSONValue) throws(WireFailure) -> T)
    throws(WireFailure) -> T
  {
    do {
      return try read(value)
    } catch {
      throw error.inside(field.rawValue)
    }
  }
}
