import NavCore

/// How screens are stored. Before version 1.0 the settings section was `section`; sessions of
/// that time hold `{"section":{"_0":"privacy"}}`, and a restore after the update must still find
/// the section. Stored as an enum Swift's `Codable` writes, the old case kept for reading only.
extension Screen {
  private enum Stored: Codable {
    case mainTabs
    case feed
    case numbersList
    case numberDetail(number: Int)
    case settings
    case settingsSection(String)
    /// The old name of `settingsSection`: read, never written.
    case section(String)
    case onboarding(step: Int)
    case promo(code: String)
  }

  init(from decoder: any Decoder) throws {
    switch try Stored(from: decoder) {
    case .mainTabs: self = .mainTabs
    case .feed: self = .feed
    case .numbersList: self = .numbersList
    case .numberDetail(let number): self = .numberDetail(number: number)
    case .settings: self = .settings
    case .settingsSection(let name), .section(let name): self = .settingsSection(name)
    case .onboarding(let step): self = .onboarding(step: step)
    case .promo(let code): self = .promo(code: code)
    }
  }

  func encode(to encoder: any Encoder) throws {
    let stored: Stored =
      switch self {
      case .mainTabs: .mainTabs
      case .feed: .feed
      case .numbersList: .numbersList
      case .numberDetail(let number): .numberDetail(number: number)
      case .settings: .settings
      case .settingsSection(let name): .settingsSection(name)
      case .onboarding(let step): .onboarding(step: step)
      case .promo(let code): .promo(code: code)
      }
    try stored.encode(to: encoder)
  }
}
