import NavCore

/// What the collector answered to one or more uploads.
package struct UploadAnswer: Sendable {
  /// Lines stored now.
  package var accepted = 0
  /// Lines stored already.
  package var duplicates = 0
  /// Rejected lines: their number in what was sent, their reason and message.
  package var rejected: [(line: Int, reason: String, message: String)] = []
  /// For every session the upload named, the last seq the collector holds (0 for none).
  package var heads: [SessionID: Int] = [:]

  init() {}

  init?(_ body: [UInt8]) {
    guard let value = try? WireFormat.decode(JSONValue.self, from: body), let object = value.objectValue,
      case .number(let accepted)? = object["accepted"], case .number(let duplicates)? = object["duplicates"],
      case .array(let rejected)? = object["rejected"]
    else { return nil }
    self.accepted = Int(accepted)
    self.duplicates = Int(duplicates)
    self.rejected = rejected.compactMap { item in
      guard let object = item.objectValue, case .number(let line)? = object["line"] else { return nil }
      var reason = ""
      var message = ""
      if case .string(let text)? = object["reason"] { reason = text }
      if case .string(let text)? = object["message"] { message = text }
      return (Int(line), reason, message)
    }
    if case .object(let heads)? = object["heads"] {
      for (session, head) in heads {
        guard let id = try? SessionID(session), case .number(let seq)? = head.objectValue?["seq"] else { continue }
        self.heads[id] = Int(seq)
      }
    }
  }

  /// Adds a later part's answer, whose line numbers count from `offset` lines on.
  mutating func add(_ other: UploadAnswer, shiftedBy offset: Int) {
    accepted += other.accepted
    duplicates += other.duplicates
    rejected += other.rejected.map { ($0.line + offset, $0.reason, $0.message) }
    heads.merge(other.heads) { max($0, $1) }
  }
}
