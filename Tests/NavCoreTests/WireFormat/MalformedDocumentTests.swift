import NavCore
import NavJSON
import Testing

/// Malformed wire-format documents: each is refused with a `WireFormatError` that names the
/// field at fault (or the line and column, for broken JSON) and says what is wrong.
@Suite struct MalformedDocumentTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var document: String
    var field: String
    var message: String
    var testDescription: String { document }
  }

  static let coordinatorCases: [Case] = [
    Case(document: #"{"routes": []}"#, field: "routes", message: "a stack needs at least one route"),
    Case(
      document: #"{"routes": [{"style": "push", "screen": "a"}]}"#, field: "routes[0].style",
      message: "must be a root, not a push"),
    Case(
      document: #"{"routes": [{"style": "root", "screen": "a"}, {"style": "root", "screen": "b"}]}"#,
      field: "routes[1].style", message: "route 1 is a root"),
    Case(
      document:
        #"{"routes": [{"style": "root", "screen": "a"}, {"style": "push", "withNavigation": true, "screen": "b"}]}"#,
      field: "routes[1].withNavigation", message: "not allowed on a push route"),
    Case(
      document: #"{"routes": [{"style": "root", "screen": "a", "colour": "red"}]}"#, field: "routes[0].colour",
      message: "unknown field \"colour\" in a route"),
    Case(
      document: #"{"routes": [{"style": "modal", "screen": "a"}]}"#, field: "routes[0].style",
      message: "unknown style \"modal\""),
    Case(document: #"{"routes": [{"style": "root"}]}"#, field: "routes[0].screen", message: "missing field \"screen\""),
    Case(
      document: #"{"routes": [{"style": "root", "screen": "a", "withNavigation": "yes"}]}"#,
      field: "routes[0].withNavigation", message: "expected a boolean, found a string"),
    Case(
      document: #"{"routes": [{"style": "root", "screen": "a", "child": null}]}"#, field: "routes[0].child",
      message: "expected an object, found null"),
    Case(document: #"{"tabs": [], "selected": 0}"#, field: "tabs", message: "tabs need at least one tab"),
    Case(
      document: #"{"tabs": [{"routes": [{"style": "root", "screen": "a"}]}], "selected": 1}"#, field: "selected",
      message: "selected tab 1 does not exist"),
    Case(
      document: #"{"tabs": [{"routes": [{"style": "root", "screen": "a"}]}]}"#, field: "selected",
      message: "missing field \"selected\""),
    Case(
      document: #"{"routes": [{"style": "root", "screen": "a"}], "tabs": []}"#, field: "tabs",
      message: "unknown field \"tabs\" in a stack coordinator"),
    Case(document: #"{"stack": []}"#, field: "", message: "a coordinator needs either \"routes\""),
    Case(
      document: #"{"routes": [{"style": "root", "screen": "a", "child": {"tabs": [{"routes": []}], "selected": 0}}]}"#,
      field: "routes[0].child.tabs[0].routes", message: "a stack needs at least one route"),
    Case(document: #"[{"style": "root", "screen": "a"}]"#, field: "", message: "expected an object, found an array"),
  ]

  static let operationCases: [Case] = [
    Case(document: #"{"op": "teleport"}"#, field: "op", message: "unknown operation \"teleport\""),
    Case(document: #"{"path": []}"#, field: "op", message: "missing field \"op\""),
    Case(
      document: #"{"op": "push", "screen": "a", "withNavigation": true}"#, field: "withNavigation",
      message: "not allowed on push"),
    Case(document: #"{"op": "goBack", "count": 0}"#, field: "count", message: "count must be at least 1, not 0"),
    Case(document: #"{"op": "goBack", "count": 1.5}"#, field: "count", message: "expected an integer"),
    Case(document: #"{"op": "goBackTo"}"#, field: "index", message: "missing field \"index\""),
    Case(document: #"{"op": "popTo", "index": -1}"#, field: "index", message: "index must be at least 0"),
    Case(
      document: #"{"op": "dismissAll", "count": 2}"#, field: "count",
      message: "unknown field \"count\" in a dismissAll operation"),
    Case(
      document: #"{"op": "start", "state": {"routes": [{"style": "root", "screen": "a"}]}, "path": []}"#, field: "path",
      message: "unknown field \"path\" in a start operation"),
    Case(
      document:
        #"{"op": "start", "state": {"routes": [{"style": "root", "screen": "a"}]}, "restoredFrom": {"session": "s-1"}}"#,
      field: "restoredFrom.seq", message: "missing field \"seq\""),
    Case(
      document:
        #"{"op": "start", "state": {"routes": [{"style": "root", "screen": "a"}]}, "restoredFrom": {"session": "s-1", "seq": 0}}"#,
      field: "restoredFrom.seq", message: "seq must be at least 1, not 0"),
    Case(
      document:
        #"{"op": "start", "state": {"routes": [{"style": "root", "screen": "a"}]}, "restoredFrom": {"session": "", "seq": 3}}"#,
      field: "restoredFrom.session", message: "invalid session id"),
    Case(
      document:
        #"{"op": "start", "state": {"routes": [{"style": "root", "screen": "a"}]}, "restoredFrom": {"session": "s-1", "seq": 3, "at": "x"}}"#,
      field: "restoredFrom.at", message: "unknown field \"at\" in restoredFrom"),
    Case(
      document: #"{"op": "start", "state": {"routes": [{"style": "root", "screen": "a"}]}, "restoredFrom": "s-1"}"#,
      field: "restoredFrom", message: "expected an object, found a string"),
    Case(
      document: #"{"op": "push", "screen": "a", "restoredFrom": {"session": "s-1", "seq": 3}}"#, field: "restoredFrom",
      message: "unknown field \"restoredFrom\" in a push operation"),
    Case(
      document: #"{"op": "setRoutes", "routes": [{"style": "sheet", "screen": "a"}]}"#, field: "routes[0].style",
      message: "must be a root, not a sheet"),
    Case(
      document: #"{"op": "goBack", "path": [{"route": 1, "tab": 0}]}"#, field: "path[0]",
      message: "either {\"route\": i} or {\"tab\": i}"),
    Case(
      document: #"{"op": "goBack", "path": [{"route": -2}]}"#, field: "path[0].route",
      message: "route must be at least 0"),
    Case(
      document: #"{"op": "goBack", "path": [{"stack": 1}]}"#, field: "path[0].stack",
      message: "unknown field \"stack\" in a path step"),
    Case(
      document: #"{"op": "setTabs", "tabs": [{"routes": [{"style": "root", "screen": "a"}]}], "selected": 3}"#,
      field: "selected", message: "selected tab 3 does not exist"),
    Case(document: #"{"op": "updateScreen", "index": 1}"#, field: "screen", message: "missing field \"screen\""),
    Case(
      document: #"{"op": "goBack", "count": -18446744073709551616}"#, field: "count",
      message: "expected an integer that fits Int"),
  ]

  static let eventCases: [Case] = [
    Case(
      document: #"{"session": "", "at": "2026-11-21T10:15:30.250Z", "op": {"op": "goBack"}}"#, field: "session",
      message: "invalid session id"),
    Case(
      document: #"{"session": "s", "at": "yesterday", "op": {"op": "goBack"}}"#, field: "at",
      message: "is not a valid time"),
    Case(
      document: #"{"session": "s", "at": "2026-11-21T12:15:30.250+02:00", "op": {"op": "goBack"}}"#, field: "at",
      message: "times are UTC with milliseconds"),
    Case(document: #"{"session": "s", "op": {"op": "goBack"}}"#, field: "at", message: "missing field \"at\""),
    Case(
      document: #"{"session": "s", "seq": 0, "at": "2026-11-21T10:15:30.250Z", "op": {"op": "goBack"}}"#, field: "seq",
      message: "seq must be at least 1"),
    Case(
      document: #"{"session": "s", "at": "2026-11-21T10:15:30.250Z", "origin": "robot", "op": {"op": "goBack"}}"#,
      field: "origin", message: "unknown origin \"robot\""),
    Case(
      document: #"{"session": "s", "at": "2026-11-21T10:15:30.250Z", "op": {"op": "goBack"}, "hash": "ABC"}"#,
      field: "hash", message: "64 lowercase hexadecimal digits"),
    Case(
      document: #"{"session": "s", "at": "2026-11-21T10:15:30.250Z", "op": {"op": "goBack"}, "user": "me"}"#,
      field: "user", message: "unknown field \"user\" in an event"),
    Case(
      document: #"{"session": "s", "at": "2026-11-21T10:15:30.250Z", "op": {"op": "goBack", "count": -3}}"#,
      field: "op.count", message: "count must be at least 1"),
  ]

  /// Broken JSON: refused by the parser with a line and column.
  static let syntaxCases: [Case] = [
    Case(document: "", field: "", message: "line 1, column 1: unexpected end of input"),
    Case(document: #"{"op": "goBack",}"#, field: "", message: "expected a string key"),
    Case(document: #"{"op": "goBack", "op": "pop"}"#, field: "", message: "duplicate key \"op\""),
    Case(document: #"{"op": 'goBack'}"#, field: "", message: "unexpected character ''', expected a value"),
    Case(
      document: "{\"op\":\n \"goBack\"} trailing", field: "",
      message: "line 2, column 12: unexpected text after the JSON value"),
    Case(document: #"{"op": "go\qBack"}"#, field: "", message: "invalid escape sequence"),
    Case(document: #"{"op": "\ud800"}"#, field: "", message: "lone high surrogate"),
    Case(document: #"{"op": "goBack", "count": 01}"#, field: "", message: "leading zeros"),
    Case(document: #"{"op": "goBack", "count": 1e999}"#, field: "", message: "out of range"),
    Case(document: #"{"op": "goBack", "count": 9007199254740993}"#, field: "", message: "cannot be stored exactly"),
    Case(document: "{\"op\": \"go\u{1}Back\"}", field: "", message: "control character"),
    Case(
      document: String(repeating: "[", count: 600) + String(repeating: "]", count: 600), field: "",
      message: "nesting deeper than 512"),
  ]

  @Test(arguments: coordinatorCases) func malformedCoordinators(_ testCase: Case) {
    expectRejected(AnyCoordinator.self, testCase)
  }

  @Test(arguments: operationCases) func malformedOperations(_ testCase: Case) {
    expectRejected(AnyOperation.self, testCase)
  }

  @Test(arguments: eventCases) func malformedEvents(_ testCase: Case) {
    expectRejected(AnyEvent.self, testCase)
  }

  @Test(arguments: syntaxCases) func brokenJSON(_ testCase: Case) {
    expectRejected(AnyOperation.self, testCase)
  }

  @Test func invalidUTF8IsRefused() {
    #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
  }

  @Test func thereAreAtLeastTwentyMalformedDocuments() {
    #expect(
      Self.coordinatorCases.count + Self.operationCases.count + Self.eventCases.count + Self.syntaxCases.count >= 20)
  }

  private func expectRejected<T: Decodable>(
    _ type: T.Type, _ testCase: Case, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try WireFormat.decode(type, from: testCase.document)
      Issue.record("accepted: \(value)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.field == testCase.field, "\(error)", sourceLocation: sourceLocation)
      #expect(error.message.contains(testCase.message), "\(error)", sourceLocation: sourceLocation)
    }
  }
}
