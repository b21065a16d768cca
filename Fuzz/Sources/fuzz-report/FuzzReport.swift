import FuzzSupport
import NavCore
import NavPersistence
import NavReport

/// Event lines from elsewhere, stored and shown as reports: every session's page and the index
/// are markup the report made, whatever the ids, screen names, payloads and causes hold (no
/// text of the input opens a tag, closes one, ends an attribute or starts an entity), and every
/// report file name is safe on any file system and distinct from the others'.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = input(data, size)
  guard let store = try? SessionStore(path: ":memory:") else { violated("cannot open an in-memory store") }
  for line in bytes.split(separator: UInt8(ascii: "\n")).prefix(64) {
    guard let event = try? WireFormat.decode(AnyEvent.self, from: line) else { continue }
    _ = try? store.append(event)
  }
  guard let sessions = try? store.sessions() else { return 0 }
  var entries: [IndexPage.Entry] = []
  var taken: Set<String> = []
  for summary in sessions.prefix(4) {
    let file = ReportFileName.unique(summary.id, taken: &taken)
    checkFileName(file, of: summary.id)
    let report: SessionReport
    do {
      report = try SessionReport.load(summary.id, from: store)
    } catch {
      // The index names a session without a page, with the error's text.
      entries.append(IndexPage.Entry(summary: summary, problem: error.description))
      continue
    }
    checkMarkup(
      ReportPage.html(report), page: "the report of \(summary.id.rawValue.debugDescription)", scripts: 1, dataScripts: 1
    )
    entries.append(IndexPage.Entry(summary: summary, verified: report.verification?.isIntact ?? false, file: file))
  }
  checkMarkup(IndexPage.html(entries), page: "the index", scripts: 1)
  return 0
}

/// A report's file name: letters, digits, `.`, `-` and `_`, no leading dot, at most 80
/// characters and a hash before `.html`, never the index's name.
private func checkFileName(_ name: String, of session: SessionID) {
  let allowed = name.unicodeScalars.allSatisfy { scalar in
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
    default: false
    }
  }
  guard allowed, name.hasSuffix(".html"), !name.hasPrefix("."), name.count <= 80 + 9 + 5 + 8,
    name.lowercased() != "index.html"
  else { violated("unsafe report file name \(name.debugDescription) for \(session.rawValue.debugDescription)") }
}
