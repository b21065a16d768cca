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

  static func write<Screen: NavigationScreen>(_ screen: Screen, to writer: inout CanonicalWriter) throws(WireFailure) {
    if let untyped = screen as? JSONValue {
      writer.json(untyped)
      return
    }
    do {
      writer.json(try JSONValueEncoder().encode(screen))
    } catch {
      throw WireFailure(error)
    }
  }
}
