/// The body of every refusal the collector sends (any 4xx or 5xx): a stable code a program
/// branches on, and a sentence for a person.
package struct ErrorBody: Hashable, Sendable, Codable {
  /// The code: `unauthorized`, `too-large`, `rate-limited`, `unavailable`, ...
  package var error: String
  /// What happened and what to do, in one sentence.
  package var message: String

  /// A refusal.
  package init(error: String, message: String) {
    self.error = error
    self.message = message
  }
}
