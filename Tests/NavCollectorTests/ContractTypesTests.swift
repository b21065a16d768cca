import NavContract
import NavCore
import NavTestSupport
import Testing

/// The contract's types as both sides write and read them: the collector's bytes are the
/// contract's, and the client reads what a newer collector may add without failing.
@Suite struct ContractTypesTests {
  @Test func anUploadAnswerIsWrittenAsTheContractShowsItAndReadBack() throws {
    let answer = UploadAnswer(
      accepted: 98, duplicates: 1,
      rejected: [
        RejectedLine(
          line: 7, rejection: LineRejection(reason: .conflict, session: sessionID("s-1"), seq: 9, message: "another")),
        RejectedLine(line: 8, rejection: LineRejection(reason: .invalid, session: nil, seq: nil, message: "not JSON")),
      ],
      heads: [sessionID("s-1"): SessionHead(seq: 8, hash: "ab"), sessionID("s-2"): .none])
    let bytes = try ContractJSON.encode(answer)
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == #"{"accepted":98,"duplicates":1,"heads":{"s-1":{"hash":"ab","seq":8},"s-2":{"hash":null,"seq":0}},"#
        + #""rejected":[{"line":7,"message":"another","reason":"conflict","seq":9,"session":"s-1"},"#
        + #"{"line":8,"message":"not JSON","reason":"invalid","seq":null,"session":null}]}"# + "\n")
    #expect(try ContractJSON.decode(UploadAnswer.self, from: bytes) == answer)
  }

  @Test func whatANewerCollectorAddsIsReadWithoutFailing() throws {
    let body = #"""
      {"accepted":0,"duplicates":0,"rejected":[{"line":1,"reason":"quota","message":"over the quota","seq":null,
      "session":"s-1","hint":"later"}],"heads":{"s-1":{"seq":0,"hash":null,"month":3}},"trace":"x"}
      """#
    let answer = try ContractJSON.decode(UploadAnswer.self, from: Array(body.utf8))
    #expect(answer.rejected.first?.rejection.reason == .unrecognized)
    #expect(answer.rejected.first?.rejection.message == "quota: over the quota")
    #expect(answer.heads[sessionID("s-1")] == SessionHead.none)
    // An older collector's answer, without heads.
    let older = try ContractJSON.decode(
      UploadAnswer.self, from: Array(#"{"accepted":1,"duplicates":0,"rejected":[]}"#.utf8))
    #expect(older.heads.isEmpty && older.accepted == 1)
  }

  @Test func everyReasonIsNamedByItsOwnWordsAndOnlyThose() {
    for reason in RejectionReason.allCases where reason != .unrecognized {
      #expect(RejectionReason(naming: reason.rawValue) == reason)
    }
    #expect(RejectionReason(naming: "Conflict") == .unrecognized)
    #expect(RejectionReason(naming: "") == .unrecognized)
  }

  @Test func aHeadsRequestWithAnIdThatIsNoneIsRefusedWhole() throws {
    #expect(throws: (any Error).self) {
      try ContractJSON.decode(HeadsRequest.self, from: Array(#"{"sessions":["ok",""]}"#.utf8))
    }
    let request = try ContractJSON.decode(HeadsRequest.self, from: Array(#"{"sessions":["a","b"]}"#.utf8))
    #expect(request.sessions == [sessionID("a"), sessionID("b")])
  }
}
