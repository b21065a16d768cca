import Foundation
@_spi(Internals) import NavArchive
@_spi(Internals) import NavCore
@_spi(Internals) import NavIngest
@_spi(Internals) import NavPersistence
import NavTestSupport
@_spi(Internals) import NavTools
import Testing

@testable import NavFleet

/// A start that restores a session the store holds is checked against that session's state at
/// the seq it names, on a store file and on PostgreSQL: a restore that fits is taken (screens
/// dropped, screens changed), one with a route the source never had is rejected `illegal`,
/// naming where it differs; nothing is checked where the store does not hold the source that far.
@Suite struct RestoreCheckTests {
  static func line(_ session: String, _ seq: Int, _ op: String) -> String {
    let at = Timestamp(millisecondsSince1970: 1_795_000_000_000 + Int64(seq) * 1_000).rfc3339
    return #"{"session":"\#(session)","seq":\#(seq),"at":"\#(at)","op":\#(op)}"#
  }

  /// A start of `routes` (screen names, pushed on a root with navigation) restoring `link`.
  static func start(_ session: String, _ screens: [String], restoring link: (String, Int)?) -> String {
    let routes = screens.enumerated().map { index, screen in
      index == 0
        ? #"{"screen":"\#(screen)","style":"root","withNavigation":true}"# : #"{"screen":"\#(screen)","style":"push"}"#
    }
    let restored = link.map { #","restoredFrom":{"session":"\#($0.0)","seq":\#($0.1)}"# } ?? ""
    return line(session, 1, #"{"op":"start","state":{"routes":[\#(routes.joined(separator: ","))]}\#(restored)}"#)
  }

  /// The source: home, then detail and more pushed (its state at seq 3).
  static let source = [
    start("src", ["home"], restoring: nil), line("src", 2, #"{"op":"push","screen":"detail"}"#),
    line("src", 3, #"{"op":"push","screen":"more"}"#),
  ]

  /// Restores, and whether each must be taken.
  static let restores: [(line: String, taken: Bool)] = [
    // A screen dropped, another decoded into a new name: fits.
    (start("fits", ["home", "article"], restoring: ("src", 3)), true),
    // A route the source never had.
    (start("misfits", ["home", "detail", "more", "extra"], restoring: ("src", 3)), false),
    // At seq 2 the source had two routes.
    (start("early", ["home", "detail", "more"], restoring: ("src", 2)), false),
    // The store does not hold the source that far, or at all: nothing to check against.
    (start("ahead", ["home", "a", "b", "c", "d"], restoring: ("src", 9)), true),
    (start("elsewhere", ["home", "a", "b"], restoring: ("gone", 1)), true),
  ]

  static func check(_ outcomes: [UploadOutcome]) {
    let lines = outcomes.flatMap(\.lines).map(\.outcome)
    let restoreOutcomes = Array(lines.suffix(restores.count))
    for ((line, taken), outcome) in zip(restores, restoreOutcomes) {
      if taken {
        #expect(outcome == .accepted, "\(line): \(outcome)")
      } else {
        guard case .rejected(let rejection) = outcome else {
          Issue.record("\(line) was taken")
          continue
        }
        #expect(rejection.reason == .illegal)
        #expect(rejection.message.firstRange(of: "the start restores session src at seq") != nil, "\(rejection)")
        #expect(rejection.message.firstRange(of: "where the source's stack had") != nil, "\(rejection)")
      }
    }
  }

  /// The source, then the restores, in two uploads and in one.
  static let uploads: [[[String]]] = [[source, restores.map(\.line)], [source + restores.map(\.line)]]

  @Test(arguments: [0, 1]) func aStoreFileChecksARestoreAgainstItsSource(uploads index: Int) throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("c.sqlite"))
    let outcomes = try Self.uploads[index].map { lines in
      try store.ingest(lines.map { ArraySlice(Array($0.utf8)) })
    }
    Self.check(outcomes)
    #expect(throws: StoreError.self) { _ = try store.summary(of: sessionID("misfits")) }
  }

  @Test(.enabled(if: TestPostgres.runs, TestPostgres.skipReason), arguments: [0, 1])
  func postgreSQLChecksARestoreAgainstItsSource(uploads index: Int) async throws {
    let test = try await PostgresTestFleet()
    var outcomes: [UploadOutcome] = []
    for lines in Self.uploads[index] {
      outcomes.append(try await test.fleet.ingest(lines.map { ArraySlice(Array($0.utf8)) }, app: test.app))
    }
    Self.check(outcomes)
  }

  @Test func anImportNamesTheLineOfARestoreThatDoesNotFit() throws {
    let folder = try TemporaryFolder()
    let store = try SessionStore(path: folder.path("i.sqlite"))
    do {
      try store.importJSONLines(from: LinesInMemory(Self.source + [Self.restores[0].line, Self.restores[1].line]))
      Issue.record("the import took a restore that does not fit its source")
    } catch {
      guard case .lineFailed(let line, .rejected(let session, _, let navigation)) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(line == 5 && session == sessionID("misfits"))
      guard case .restoreDoesNotFitSource(let link, let path, _) = navigation.reason else {
        Issue.record("\(navigation)")
        return
      }
      #expect(link == SessionLink(session: sessionID("src"), seq: 3) && path == .top)
    }
  }
}
