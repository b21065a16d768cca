/// What an app's screen type must be for NavStore to store, compare and replay it.
///
/// `Codable` so it can be written to the log, `Hashable` so states compare and diff, `Sendable`
/// so states cross actors. A Swift enum of screen states gets all three for free.
public typealias NavigationScreen = Codable & Hashable & Sendable
