import NavJSON

/// Screens inside wire-format values. Untyped screens (`JSONValue`) are the JSON itself; typed
/// ones go through their own `Codable` conformance, on NavStore's tree coders, so an app's
/// screen type is mapped to and from the same JSON by the same codec as everything around it.
enum WireScreens {
  static func read<Screen: NavigationScreen>(_ value: JSONValue) throws(WireFailure) -> Screen {
    if let untyped = value as? Screen { return untyped }
    do {
      return try JSONValueDecoder().decode(Screen.self, from: value)
    } catch {
      throw WireFailure(error)
    }
  }

  /// A screen as its JSON tree: itself when untyped, else what its `Codable` conformance writes.
  static func tree<Screen: NavigationScreen>(of screen: Screen) throws(WireFailure) -> JSONValue {
    if let untyped = screen as? JSONValue { return untyped }
    do {
      return try JSONValueEncoder().encode(screen)
    } catch {
      throw WireFailure(error)
    }
  }

  static func write<Screen: NavigationScreen>(_ screen: Screen, to writer: inout CanonicalWriter) throws(WireFailure) {
    writer.json(try tree(of: screen))
  }
}
