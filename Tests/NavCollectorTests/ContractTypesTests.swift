import NavContract
import NavCore
import NavTestSupport
import PropertyBased
import Testing

/// The contract's types as both sides write and read them: the collector's bytes are the
/// contract's, and the client reads what a newer collector may add without failing.
@Suite struct ContractTypesTests {
  /// The upload's answer, written straight into bytes, is the bytes the contract's encoder
  /// writes: random counts, heads (ids that differ only in normalization, hostile characters,
  /// no hash) and rejections (with and without a session and a seq).
  @Test func anUploadAnswersBodyIsTheEncodersBytes() async {
    await checkProperty(count: 300, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      let pieces = [
        "a", "Z", "0", "-", "\"", "\\", "\n", "\u{1}", "\u{7f}", "é", "e\u{301}", "\u{1F600}", "\u{FFFF}", " ", "/",
      ]
      func text(_ most: Int) -> String {
        (0..<Int.random(in: 1...most, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "a" }.joined()
      }
      func count() -> Int {
        [0, 1, 20, 9_007_199_254_740_992, Int.random(in: 0...1_000_000, using: &rng)].randomElement(using: &rng) ?? 0
      }
      var heads: [SessionID: SessionHead] = [:]
      for _ in 0..<Int.random(in: 0...6, using: &rng) {
        guard let id = try? SessionID(text(4)) else { continue }
        heads[id] = SessionHead(seq: count(), hash: Bool.random(using: &rng) ? text(6) : nil)
      }
      let rejected = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
        RejectedLine(
          line: count(),
          rejection: LineRejection(
            reason: RejectionReason.allCases.randomElement(using: &rng) ?? .invalid,
            session: Bool.random(using: &rng) ? try? SessionID(text(4)) : nil,
            seq: Bool.random(using: &rng) ? count() : nil, message: text(12)))
      }
      let answer = UploadAnswer(accepted: count(), duplicates: count(), rejected: rejected, heads: heads)
      let encoded = try ContractJSON.encode(answer)
      #expect(
        answer.body == encoded,
        "\(String(decoding: answer.body, as: UTF8.self)) against \(String(decoding: encoded, as: UTF8.self))")
    }
  }

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
