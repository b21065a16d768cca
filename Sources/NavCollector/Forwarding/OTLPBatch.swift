/// A request of many records made from the export's lines, each of which is a request of one
/// (`{"resourceLogs":[R]}`): the `R`s joined into one `resourceLogs` array, without parsing them.
struct OTLPBatch: Sendable {
  private static let head = Array(#"{"resourceLogs":["#.utf8)
  private static let tail = Array("]}".utf8)

  /// Each record's resource-logs member, in order.
  private(set) var members: [[UInt8]] = []
  /// The size of the request it makes.
  private(set) var bytes = head.count + tail.count

  /// The number of records.
  var records: Int { members.count }

  /// The resource-logs member of an export line, or `nil` for a line of another shape.
  static func member(of line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    guard line.count > head.count + tail.count, line.starts(with: head), line.suffix(tail.count).elementsEqual(tail)
    else { return nil }
    return line.dropFirst(head.count).dropLast(tail.count)
  }

  /// Adds the record of an export line; `false` (and nothing added) for a line of another shape.
  mutating func add(_ line: ArraySlice<UInt8>) -> Bool {
    guard let member = Self.member(of: line) else { return false }
    bytes += member.count + (members.isEmpty ? 0 : 1)
    members.append(Array(member))
    return true
  }

  /// The request's body.
  var request: [UInt8] {
    var body = Self.head
    body.reserveCapacity(bytes)
    for (index, member) in members.enumerated() {
      if index > 0 { body.append(UInt8(ascii: ",")) }
      body.append(contentsOf: member)
    }
    return body + Self.tail
  }

  /// The batch in two, its first half and its second, for an endpoint that finds it too large.
  var halves: (OTLPBatch, OTLPBatch) {
    var (first, second) = (OTLPBatch(), OTLPBatch())
    for (index, member) in members.enumerated() {
      if index < members.count / 2 { first.append(member) } else { second.append(member) }
    }
    return (first, second)
  }

  private mutating func append(_ member: [UInt8]) {
    bytes += member.count + (members.isEmpty ? 0 : 1)
    members.append(member)
  }
}
