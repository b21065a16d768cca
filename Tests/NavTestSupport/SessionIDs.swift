import NavCore

/// A session id written in a test, known to be valid (a typo stops the test at once).
public func sessionID(_ text: String) -> SessionID {
  guard let id = try? SessionID(text) else { preconditionFailure("test session id \(text) is invalid") }
  return id
}
