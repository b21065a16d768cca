import NavContract
import NavCore

extension UploadAnswer {
  /// The answer `body` is, `nil` when it is not one.
  package init?(_ body: [UInt8]) {
    guard let answer = try? ContractJSON.decode(UploadAnswer.self, from: body) else { return nil }
    self = answer
  }

  /// Adds a later part's answer, whose line numbers count from `offset` lines on.
  package mutating func add(_ other: UploadAnswer, shiftedBy offset: Int) {
    accepted += other.accepted
    duplicates += other.duplicates
    rejected += other.rejected.map { RejectedLine(line: $0.line + offset, rejection: $0.rejection) }
    heads.merge(other.heads) { $0.seq >= $1.seq ? $0 : $1 }
  }
}
