import FuzzSupport

/// The elements the report's templates write; any other tag can only have come from the input.
private let knownElements: Set<String> = [
  "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "main", "section", "div", "p",
  "dl", "dt", "dd", "a", "code", "label", "input", "select", "option", "span", "ul", "ol", "li", "table", "thead",
  "tbody", "tr", "th", "td", "template", "script", "strong", "svg", "g", "rect", "line", "path", "circle", "text",
]
/// The attributes the report's templates write: text that ended an attribute value early and
/// went on as markup would have to pass as one of these, a value in quotes.
private let knownAttributes: Set<String> = [
  "aria-labelledby", "charset", "class", "content", "cx", "cy", "d", "data-focus", "data-ms", "data-seq", "data-state",
  "data-time", "height", "href", "id", "lang", "max", "min", "name", "r", "role", "rx", "start", "step", "tabindex",
  "text-anchor", "type", "value", "viewBox", "width", "x", "x1", "x2", "y", "y1", "y2", "selected", "data-step",
  "hidden",
]
/// Elements without a closing tag.
private let voidElements: Set<String> = ["meta", "input"]
/// Elements whose content is raw text up to their closing tag: the report's own style and script.
private let rawTextElements: Set<String> = ["style", "script"]

/// Reads `html` as the report writes it and stops the fuzzer when text from the input changed
/// its markup: every `<` opens or closes a known element, elements nest properly, every
/// attribute is one the report writes, values are double-quoted without `<`, every `&` starts
/// an entity, text holds no `>`, and the page has its `scripts` scripts and `dataScripts` data
/// blocks (`<script type="application/json">`, whose content holds no `<`, `>` or `&` at all)
/// and no more. A quote left unescaped would end a value early, and what follows would have to
/// pass as a known attribute with a quoted value of its own.
func checkMarkup(_ html: String, page: String, scripts: Int, dataScripts: Int = 0) {
  var scanner = MarkupScanner(Array(html.utf8), expectedScripts: scripts, expectedDataScripts: dataScripts)
  if let problem = scanner.problem() { violated("\(page): \(problem)") }
}

private struct MarkupScanner {
  let bytes: [UInt8]
  var index = 0
  var open: [String] = []
  var scripts = 0
  var dataScripts = 0
  let expectedScripts: Int
  let expectedDataScripts: Int

  init(_ bytes: [UInt8], expectedScripts: Int, expectedDataScripts: Int) {
    self.bytes = bytes
    self.expectedScripts = expectedScripts
    self.expectedDataScripts = expectedDataScripts
  }

  mutating func problem() -> String? {
    let doctype = Array("<!doctype html>".utf8)
    guard bytes.starts(with: doctype) else { return "no doctype" }
    index = doctype.count
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "<"):
        if let problem = tag() { return problem + " at byte \(index)" }
      case UInt8(ascii: ">"):
        return "a `>` in text at byte \(index)"
      case UInt8(ascii: "&"):
        if let problem = entity() { return problem }
      default:
        index += 1
      }
    }
    guard open.isEmpty else { return "unclosed elements \(open)" }
    guard scripts == expectedScripts else { return "\(scripts) scripts, not \(expectedScripts)" }
    guard dataScripts == expectedDataScripts else {
      return "\(dataScripts) data scripts, not \(expectedDataScripts)"
    }
    return nil
  }

  private mutating func tag() -> String? {
    index += 1
    let closing = peek("/")
    if closing { index += 1 }
    let name = word()
    guard knownElements.contains(name) else { return "a tag <\(closing ? "/" : "")\(name)> the report does not write" }
    if closing {
      guard open.last == name else { return "</\(name)> closes \(open.last ?? "nothing")" }
      open.removeLast()
      return expect(">")
    }
    var type: String?
    while true {
      skipSpaces()
      if peek(">") {
        index += 1
        break
      }
      if peek("/") {
        index += 1
        return expect(">")  // self-closed (SVG): nothing stays open
      }
      let attribute = word()
      guard !attribute.isEmpty else { return "a broken attribute in <\(name)>" }
      guard knownAttributes.contains(attribute) else {
        return "an attribute \(attribute) the report does not write, in <\(name)>"
      }
      if peek("=") {
        index += 1
        guard peek("\"") else { return "attribute \(attribute) of <\(name)> unquoted" }
        index += 1
        let valueStart = index
        defer {
          if attribute == "type" {
            type = String(decoding: bytes[valueStart..<max(valueStart, index - 1)], as: UTF8.self)
          }
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
          if bytes[index] == UInt8(ascii: "<") { return "a `<` in attribute \(attribute) of <\(name)>" }
          if bytes[index] == UInt8(ascii: "&") {
            if let problem = entity() { return problem }
          } else {
            index += 1
          }
        }
        guard expect("\"") == nil else { return "attribute \(attribute) of <\(name)> unterminated" }
      }
    }
    if voidElements.contains(name) { return nil }
    let isData = name == "script" && type == "application/json"
    if name == "script" {
      if isData { dataScripts += 1 } else { scripts += 1 }
    }
    if rawTextElements.contains(name) {
      let end = Array("</\(name)>".utf8)
      let contentStart = index
      while index < bytes.count, !bytes[index...].starts(with: end) { index += 1 }
      guard index < bytes.count else { return "<\(name)> never closed" }
      if isData,
        bytes[contentStart..<index].contains(where: {
          [UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&")].contains($0)
        })
      {
        return "a `<`, `>` or `&` in a data script"
      }
      index += end.count
      return nil
    }
    open.append(name)
    return nil
  }

  /// `&name;`, `&#digits;` or `&#xhex;`.
  private mutating func entity() -> String? {
    let start = index
    index += 1
    if peek("#") {
      index += 1
      if peek("x") { index += 1 }
    }
    let body = word()
    guard !body.isEmpty, peek(";") else {
      return
        "a `&` that starts no entity at byte \(start): \(String(decoding: bytes[start..<min(bytes.count, start + 12)], as: UTF8.self).debugDescription)"
    }
    index += 1
    return nil
  }

  private mutating func word() -> String {
    let start = index
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"):
        index += 1
      default:
        return String(decoding: bytes[start..<index], as: UTF8.self)
      }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private func peek(_ character: Unicode.Scalar) -> Bool {
    index < bytes.count && bytes[index] == UInt8(ascii: character)
  }

  private mutating func expect(_ character: Unicode.Scalar) -> String? {
    guard peek(character) else { return "expected `\(character)` at byte \(index)" }
    index += 1
    return nil
  }

  private mutating func skipSpaces() {
    while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n") { index += 1 }
  }
}
