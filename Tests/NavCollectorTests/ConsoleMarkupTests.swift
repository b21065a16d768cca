import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NavContract
@_spi(Internals) import NavCore
import NavFleet
import NavPersistence
import NavTestSupport
import PropertyBased
import Testing

@testable import NavCollector

/// The console's pages are markup the console wrote, whatever the store holds: a collector fed
/// sessions whose ids, screens, causes, app versions and devices are hostile text serves pages
/// whose tags and attributes are exactly those of a collector fed plain words in their place.
/// Text that opened a tag, closed one, or ended an attribute's value would change them.
@Suite struct ConsoleMarkupTests {
  /// Pieces of hostile text: markup, quotes, entities, bidirectional overrides, an emoji.
  static let pieces = [
    "<", ">", "&", "\"", "'", "/", "=", " ", "a", "script", "<b id=\"x\">", "</td>", "&amp;", "\u{202E}", "é",
    "😀", "`", "-->", "<!--", "javascript:", "?", "#", "%2F", "\\",
  ]

  /// A hostile text of 1 to 8 pieces.
  static func hostile(using rng: inout some RandomNumberGenerator) -> String {
    (0..<Int.random(in: 1...8, using: &rng)).map { _ in pieces.randomElement(using: &rng) ?? "<" }.joined()
  }

  /// The texts a collector is fed, by role.
  struct Texts {
    var first: String
    var second: String
    var screen: String
    var otherScreen: String
    var cause: String
    var version: String
    var device: String
  }

  /// Two sessions of `texts`, the second restored from the first, as upload lines dated today.
  static func lines(_ texts: Texts) throws -> String {
    let today = Timestamp.now.millisecondsSince1970 / 86_400_000 * 86_400_000 + 43_200_000
    func at(_ seconds: Int64) -> Timestamp { Timestamp(millisecondsSince1970: today + seconds * 1_000) }
    let (first, second) = (try SessionID(texts.first), try SessionID(texts.second))
    let home = AnyCoordinator.stack([AnyRoute(style: .root(withNavigation: true), screen: .string(texts.screen))])
    let context = SessionContext(appVersion: texts.version, osName: "iOS", deviceModel: texts.device)
    var events = [
      AnyEvent(session: first, seq: 1, at: at(0), origin: .app, operation: .start(home, context: context)),
      AnyEvent(session: first, seq: 2, at: at(5), origin: .user, operation: .push(.string(texts.otherScreen))),
      AnyEvent(session: first, seq: 3, at: at(9), origin: .app, operation: .pop()),
      AnyEvent(
        session: second, seq: 1, at: at(20), origin: .app,
        operation: .start(home, restoredFrom: SessionLink(session: first, seq: 2), context: context)),
    ]
    events[1].cause = .string(texts.cause)
    return try events.map { String(decoding: try WireFormat.canonicalBytes($0), as: UTF8.self) }.joined(
      separator: "\n")
  }

  /// The pages a support engineer opens, each as its tags and their attributes' names, in order.
  static func skeletons(of texts: Texts) async throws -> [String: [String]] {
    let folder = try TemporaryFolder()
    let fleet = try SQLiteFleet(path: folder.path("collector.sqlite"))
    let ingest = try fleet.createToken(app: AppName("shop"), role: .ingest).text
    let reader = try fleet.createToken(app: AppName("shop"), role: .read).text
    let application = Application(router: Collector.router(fleet: fleet))
    let body = try lines(texts)
    return try await application.test(.router) { client in
      try await client.execute(
        uri: "/v1/events", method: .post,
        headers: [.authorization: "Bearer \(ingest)", .contentType: "application/x-ndjson"],
        body: ByteBuffer(string: body)
      ) { response in
        #expect(response.status == .ok)
        #expect(String(buffer: response.body).contains(#""accepted":4"#), "\(String(buffer: response.body))")
      }
      let cookie = try await ConsoleTests.signIn(client, with: reader)
      let pages = [
        ("list", "/console/sessions"),
        ("screen", "/console/sessions?screen=" + ContractPath.segment(texts.otherScreen)),
        ("continuing", "/console/sessions?restored_from=" + ContractPath.segment(texts.first)),
        ("prefix", "/console/sessions?id_prefix=" + ContractPath.segment(texts.first)),
        ("first", ConsolePages.sessionPath(try SessionID(texts.first))),
        ("second", ConsolePages.sessionPath(try SessionID(texts.second))),
        ("fleet", "/console/fleet"),
        // A page to return to that the console takes (printable ASCII): its quotes and brackets
        // go into the form's hidden field.
        (
          "sign-in",
          "/console/sign-in?next=" + ContractPath.segment("/console/sessions?screen=" + returnable(texts.screen))
        ),
        ("since", "/console/sessions?since=" + ContractPath.segment(texts.cause)),
      ]
      var skeletons: [String: [String]] = [:]
      for (name, path) in pages {
        skeletons[name] = try await client.execute(uri: path, method: .get, headers: [.cookie: cookie]) { response in
          Self.skeleton(String(buffer: response.body))
        }
      }
      return skeletons
    }
  }

  /// `text` without what a page to return to after signing in cannot hold (all but printable
  /// ASCII, and a backslash).
  static func returnable(_ text: String) -> String {
    String(text.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }.map(Character.init))
  }

  /// Every tag in `html`, as its name and its attributes' names; a tag a regular expression of
  /// well-formed tags does not read whole is itself a finding.
  static func skeleton(_ html: String) -> [String] {
    let tag = /<(\/?[a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:="[^"<]*")?)*)\s*>/
    let attribute = /\s+([a-zA-Z][a-zA-Z0-9-]*)(?:="[^"<]*")?/
    var found: [String] = []
    var rest = Substring(html)
    if rest.hasPrefix("<!doctype html>") { rest = rest.dropFirst("<!doctype html>".count) }
    while let open = rest.firstIndex(of: "<") {
      rest = rest[open...]
      guard let match = rest.prefixMatch(of: tag) else {
        found.append("UNREAD: " + String(rest.prefix(40)))
        rest = rest.dropFirst()
        continue
      }
      let names = match.output.2.matches(of: attribute).map { String($0.output.1) }
      found.append(([String(match.output.1)] + names).joined(separator: " "))
      rest = rest[match.range.upperBound...]
    }
    return found
  }

  @Test func hostileTextChangesNoTagOfAnyPage() async throws {
    await checkProperty(count: 24, input: Gen.int(in: 0...Int(UInt32.max))) { seed in
      var rng = SeededRandom(seed: UInt64(seed))
      var words = (0..<7).map { _ in Self.hostile(using: &rng) }
      // Two ids that are ids (no control character) and differ.
      words[0] = "a" + words[0]
      words[1] = "b" + words[1]
      let hostile = Texts(
        first: words[0], second: words[1], screen: "s" + words[2], otherScreen: "o" + words[3], cause: words[4],
        version: words[5], device: words[6])
      let plain = Texts(
        first: "a-first", second: "b-second", screen: "home", otherScreen: "detail", cause: "tap", version: "2.0",
        device: "phone")
      let expected = try await Self.skeletons(of: plain)
      let got = try await Self.skeletons(of: hostile)
      for (page, tags) in expected {
        #expect(got[page] == tags, "\(page) with \(words)")
        #expect(
          !(got[page] ?? []).contains { $0.hasPrefix("UNREAD") },
          "\(page): \((got[page] ?? []).filter { $0.hasPrefix("UNREAD") })")
      }
    }
  }
}
