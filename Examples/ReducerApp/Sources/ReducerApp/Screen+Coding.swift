import NavCore

/// How screens are stored. Version 1 of the app called the thread screen `conversation`; its
/// sessions hold `{"conversation":{"id":41}}`, and a restore after the update must still find
/// the thread. The stored shape is an enum Swift's `Codable` writes, with the old case kept for
/// reading only.
extension Screen {
  private enum Stored: Codable {
    case tabs
    case mail
    case thread(id: Int)
    /// Version 1's name for `thread`: read, never written.
    case conversation(id: Int)
    case compose(replyTo: Int?)
    case settings
    case signature
  }

  init(from decoder: any Decoder) throws {
    switch try Stored(from: decoder) {
    case .tabs: self = .tabs
    case .mail: self = .mail
    case .thread(let id), .conversation(let id): self = .thread(id: id)
    case .compose(let replyTo): self = .compose(replyTo: replyTo)
    case .settings: self = .settings
    case .signature: self = .signature
    }
  }

  func encode(to encoder: any Encoder) throws {
    let stored: Stored =
      switch self {
      case .tabs: .tabs
      case .mail: .mail
      case .thread(let id): .thread(id: id)
      case .compose(let replyTo): .compose(replyTo: replyTo)
      case .settings: .settings
      case .signature: .signature
      }
    try stored.encode(to: encoder)
  }
}
