@_spi(Internals) import NavCore

/// Writes one demo session event by event, applying each operation as it goes so the demo can
/// only ever contain history the store accepts.
struct DemoSessionBuilder {
  let session: SessionID
  private(set) var events: [AnyEvent] = []
  /// The session's state after its last event.
  private(set) var state: AnyCoordinator?
  private var phase = SessionPhase.foreground
  private var time: Timestamp

  init(_ id: String, startingAt time: Timestamp) throws {
    session = try SessionID(id)
    self.time = time
  }

  /// Adds an operation `seconds` after the previous event.
  mutating func add(
    _ operation: AnyOperation, after seconds: Double = 2, origin: EventOrigin = .app, cause: JSONValue? = nil
  ) throws {
    state = try operation.apply(to: state)
    phase = try phase.after(operation)
    time = Timestamp(millisecondsSince1970: time.millisecondsSince1970 + Int64(seconds * 1000))
    events.append(AnyEvent(session: session, at: time, origin: origin, operation: operation, cause: cause))
  }
}

/// The demo app's screens, as Swift's synthesized `Codable` writes an enum's cases.
enum DemoScreen {
  static let home: JSONValue = ["home": [:]]
  static let numbersList: JSONValue = ["numbersList": [:]]
  static func numberDetail(_ number: Int) -> JSONValue { ["numberDetail": ["number": .number(Double(number))]] }
  static let onboarding: JSONValue = ["onboarding": [:]]
  static let welcome: JSONValue = ["welcome": [:]]
  static let permissions: JSONValue = ["permissions": ["notifications": false]]
  static let allSet: JSONValue = ["allSet": [:]]
  static let mainTabs: JSONValue = ["mainTabs": [:]]
  static let feed: JSONValue = ["feed": [:]]
  static func post(_ id: Int) -> JSONValue { ["post": ["id": .number(Double(id))]] }
  static func search(_ query: String) -> JSONValue { ["search": ["query": .string(query)]] }
  static func result(_ title: String) -> JSONValue { ["result": ["title": .string(title)]] }
  static let profile: JSONValue = ["profile": [:]]
  static let settings: JSONValue = ["settings": [:]]
}
