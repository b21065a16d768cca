import NavCore

/// What a collector's token may do, in its app only.
package enum TokenRole: String, Hashable, Sendable, CaseIterable {
  /// A device: uploads its app's sessions and reads their heads.
  case ingest
  /// Support, QA and analysts: reads the app's sessions, histories, states, reports and
  /// exports; writes nothing.
  case read
}

/// A collector's token as the store keeps it: which app it reaches, with which role, who holds
/// it, until when, when it was last used, and whether it was revoked. The secret is never kept,
/// only its SHA-256.
package struct AccessToken: Hashable, Sendable {
  /// The token's public part: 16 hex digits, shown by listings and used to revoke it.
  package var id: String
  /// The app it reaches.
  package var app: AppName
  /// What it may do there.
  package var role: TokenRole
  /// When it was made.
  package var createdAt: Timestamp
  /// When it was revoked, if it was: a revoked token authenticates nothing.
  package var revokedAt: Timestamp?
  /// Who or what holds it, in the operator's words (`ios-app 4.2`, `support team`).
  package var label: String? = nil
  /// When it stops authenticating, if it does.
  package var expiresAt: Timestamp? = nil
  /// When it last authenticated a request (noted to the minute), if it ever did.
  package var lastUsedAt: Timestamp? = nil

  /// The id of `text` when it is a whole token (`nvs_ID_SECRET`): what an operator who pasted
  /// the token where its id was asked meant. `nil` otherwise.
  package static func id(ofWhole text: String) -> String? { PresentedToken(text)?.id }

  /// Whether it authenticates requests at `time`: not revoked, not expired.
  package func isValid(at time: Timestamp) -> Bool {
    revokedAt == nil && expiresAt.map { time < $0 } ?? true
  }
}

/// What a token's label may be: 1 to 256 characters, none of them a control character.
struct TokenLabelError: Error, CustomStringConvertible {
  /// What is wrong.
  let reason: String
  var description: String { "a token's label \(reason)" }

  /// `text`, checked.
  static func check(_ text: String) throws(TokenLabelError) -> String {
    let count = text.unicodeScalars.count
    guard (1...256).contains(count) else { throw TokenLabelError(reason: "has 1 to 256 characters, not \(count)") }
    guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw TokenLabelError(reason: "holds no control character")
    }
    return text
  }
}
