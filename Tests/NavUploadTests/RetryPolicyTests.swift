import NavContract
import NavUpload
import Testing

/// The retry policy over the contract's answers, with no network: every status, no answer,
/// `Retry-After` within and past the cap, a 413 of one line and of many, a refused token.
@Suite struct RetryPolicyTests {
  let policy = RetryPolicy(firstBackoff: .seconds(1), maximumBackoff: .seconds(600), maximumRetryAfter: .seconds(300))

  @Test(
    arguments: [
      // status, Retry-After, failures in a row, lines, expected
      (200, nil, 1, 10, RetryPolicy.Decision.take),
      (413, nil, 1, 10, .split),
      (413, nil, 1, 1, .hold),
      (401, nil, 1, 10, .stop),
      (403, nil, 3, 10, .stop),
      (503, 2, 1, 10, .retry(after: .seconds(2))),
      (429, 0, 1, 10, .retry(after: .zero)),
      (503, 3_600, 1, 10, .retry(after: .seconds(300))),  // capped
      (408, nil, 1, 10, .retry(after: .seconds(1))),  // no Retry-After: the backoff
      (502, nil, 3, 10, .retry(after: .seconds(4))),
      (504, nil, 2, 10, .retry(after: .seconds(2))),
      (500, 10, 1, 10, .retry(after: .seconds(1))),  // Retry-After counts only where the contract asks to wait
      (400, nil, 4, 10, .retry(after: .seconds(8))),
      (404, nil, 1, 10, .retry(after: .seconds(1))),
      (415, nil, 1, 10, .retry(after: .seconds(1))),
      (201, nil, 1, 10, .retry(after: .seconds(1))),
    ] as [(Int, Int?, Int, Int, RetryPolicy.Decision)])
  func anAnswerDecides(status: Int, retryAfter: Int?, failures: Int, lines: Int, expected: RetryPolicy.Decision) {
    let attempt = RetryPolicy.Attempt.answered(status: status, retryAfter: retryAfter.map { .seconds($0) })
    #expect(policy.decide(after: attempt, failures: failures, lines: lines, jitter: 1) == expected)
  }

  /// No answer (the connection failed before the body went, or was cut after it): the backoff,
  /// doubling to its cap, scaled by the jitter.
  @Test func noAnswerBacksOffAndTheBackoffIsCapped() {
    #expect(policy.decide(after: .noAnswer, failures: 1, lines: 5, jitter: 1) == .retry(after: .seconds(1)))
    #expect(policy.decide(after: .noAnswer, failures: 5, lines: 5, jitter: 1) == .retry(after: .seconds(16)))
    #expect(policy.decide(after: .noAnswer, failures: 5, lines: 5, jitter: 0.5) == .retry(after: .seconds(8)))
    #expect(policy.decide(after: .noAnswer, failures: 30, lines: 5, jitter: 1) == .retry(after: .seconds(600)))
    #expect(policy.decide(after: .noAnswer, failures: 1_000, lines: 5, jitter: 1) == .retry(after: .seconds(600)))
    #expect(policy.backoff(failures: 3, jitter: 0.1) == .seconds(2), "the jitter is kept within 0.5 to 1")
  }

  /// `push`'s flavour: an answer with no rule is final, the waits are as the uploader's.
  @Test func anAnswerWithNoRuleIsFinalForPush() {
    let push = RetryPolicy(retriesOtherAnswers: false)
    for status in [500, 404, 400, 201] {
      #expect(push.decide(after: .answered(status: status, retryAfter: nil), failures: 1, lines: 3, jitter: 1) == .fail)
    }
    #expect(
      push.decide(after: .answered(status: 503, retryAfter: nil), failures: 2, lines: 3, jitter: 1)
        == .retry(after: .seconds(2)))
    #expect(push.decide(after: .noAnswer, failures: 1, lines: 3, jitter: 1) == .retry(after: .seconds(1)))
    #expect(push.decide(after: .answered(status: 200, retryAfter: nil), failures: 1, lines: 3, jitter: 1) == .take)
  }

  @Test func retryAfterIsReadInSeconds() {
    #expect(RetryPolicy.retryAfter("120") == .seconds(120))
    #expect(RetryPolicy.retryAfter(" 3 ") == .seconds(3))
    #expect(RetryPolicy.retryAfter("-1") == nil)
    #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2026 07:28:00 GMT") == nil)
    #expect(RetryPolicy.retryAfter(nil) == nil)
  }
}
