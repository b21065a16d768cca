import NavJSON

/// Screens inside wire-format values. Untyped screens (`JSONValue`) are the JSON itself; typed
/// ones go through their own `Codable` conformance, on NavStore's tree coders, so an app's
/// screen type is mapped to and from the same JSON by the same codec as everything around it.
enum WireScreens {
  static func read<AppScreen: NavigationScreen>(_ value: JSONValue) throws(WireFailure) -> AppScreen {
    if let untyped = value as? AppScreen { return untyped }
    do {
      return try JSONValueDecoder().decode(AppScreen.self, from: value)
    } catch {
      throw WireFailure(error)
    }
  }

  /// A screen as its JSON tree: itself when untyped, else what its `Codable` conformance writes.
  static func tree<AppScreen: NavigationScreen>(of screen: AppScreen) throws(WireFailure) -> JSONValue {
    if let untyped = screen as? JSONValue { return untyped }
    do {
      return try JSONValueEncoder().encode(screen)
    } catch {
      throw WireFailure(error)
    }
  }

  static func write<AppScreen: NavigationScreen>(_ screen: AppScreen, to writer: inout CanonicalWriter)
    throws(WireFailure)
  {
    writer.json(try tree(of: screen))
  }
}
