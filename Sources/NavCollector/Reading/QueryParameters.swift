import Foundation
import Hummingbird
import NavCore

/// A request's query parameters, checked against the ones its endpoint takes: a parameter the
/// endpoint does not know, or one given twice, is a 400 that names it, never ignored (a
/// misspelt filter would otherwise return everything). Each value is read by a typed getter
/// whose refusal is a 400 that says what was expected. Values arrive percent-decoded once.
struct QueryParameters {
  private var values: [String: String] = [:]

  init(_ request: Request, allowed: Set<String>) throws {
    for (key, value) in request.uri.queryParameters {
      let name = String(key)
      guard allowed.contains(name) else {
        let known = allowed.isEmpty ? "it takes none" : "it takes " + allowed.sorted().joined(separator: ", ")
        throw CollectorError.badQuery("'\(name)' is not a parameter of this endpoint (\(known))")
      }
      guard values[name] == nil else { throw CollectorError.badQuery("\(name): give it once") }
      values[name] = String(value)
    }
  }

  /// The text of `name`, if given (an empty value is refused: a filter on nothing is a typo).
  func text(_ name: String) throws -> String? {
    guard let text = values[name] else { return nil }
    guard !text.isEmpty else { throw CollectorError.badQuery("\(name): give a value, or leave the parameter out") }
    return text
  }

  func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
    guard let text = values[name] else { return nil }
    guard let value = Int(text), range.contains(value) else {
      let upper = range.upperBound == .max ? "" : " to \(range.upperBound)"
      throw CollectorError.badQuery("\(name): expected a whole number from \(range.lowerBound)\(upper), not '\(text)'")
    }
    return value
  }

  /// A time, in any form the command line takes: a date, or a date and time (`Timestamp(query:)`).
  func time(_ name: String) throws -> Timestamp? {
    guard let text = values[name] else { return nil }
    do {
      return try Timestamp(query: text)
    } catch {
      throw CollectorError.badQuery("\(name): \(error.description)")
    }
  }

  /// `true` or `false`; `1` and `0` too.
  func boolean(_ name: String) throws -> Bool? {
    guard let text = values[name] else { return nil }
    switch text {
    case "true", "1": return true
    case "false", "0": return false
    default: throw CollectorError.badQuery("\(name): expected true or false, not '\(text)'")
    }
  }

  /// One of the values of `T`.
  func choice<T: RawRepresentable & CaseIterable>(_ name: String, of type: T.Type) throws -> T?
  where T.RawValue == String {
    guard let text = values[name] else { return nil }
    guard let value = T(rawValue: text) else {
      let choices = T.allCases.map(\.rawValue).joined(separator: " or ")
      throw CollectorError.badQuery("\(name): expected \(choices), not '\(text)'")
    }
    return value
  }

  /// A session id (a 400 for one that cannot be).
  func session(_ name: String) throws -> SessionID? {
    guard let text = values[name] else { return nil }
    do {
      return try SessionID(text)
    } catch {
      throw CollectorError.badQuery("\(name): \(error.description)")
    }
  }
}

extension CollectorContext {
  /// The session the path's `{id}` names, percent-decoded once (RFC 3986): `sp%20ace` is
  /// `sp ace`, `a%2Fb` is `a/b`, `%2e%2e` is `..`. An id that does not decode, or cannot be a
  /// session's, is a session this app does not have (404).
  func sessionInPath() throws -> SessionID {
    guard let raw = parameters.get("id"), let decoded = raw.removingPercentEncoding,
      let id = try? SessionID(decoded)
    else { throw CollectorError.notFound }
    return id
  }
}
